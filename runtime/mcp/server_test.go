package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"

	"github.com/gramc-dev/gramc/runtime/mcp"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// weather loads the weather example's tools and their MCP entries as
// `gramc schema --target mcp` prints them.
func weather(t *testing.T) ([]runtime.ToolSpecification, map[string]map[string]json.RawMessage) {
	t.Helper()
	pkgs, ds, err := load.Packages([]string{"../../examples/weather"}, nil)
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	var specs []runtime.ToolSpecification
	for _, tool := range pkgs[0].Tools {
		s, err := schema.Spec(tool, schema.MCP)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, s)
	}
	out, err := schema.Emit(pkgs[0].Tools, schema.MCP)
	if err != nil {
		t.Fatal(err)
	}
	var entries []map[string]json.RawMessage
	if err := json.Unmarshal(out, &entries); err != nil {
		t.Fatal(err)
	}
	byName := map[string]map[string]json.RawMessage{}
	for _, e := range entries {
		var name string
		json.Unmarshal(e["name"], &name)
		byName[name] = e
	}
	return specs, byName
}

func impl(specs []runtime.ToolSpecification) *runtime.ToolLibrary {
	funcs := map[string]runtime.ToolFunc{
		"getWeather": func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct{ City, Unit string }
			json.Unmarshal(args, &a)
			return map[string]any{"temperature": 14, "conditions": "rain in " + a.City + " (" + a.Unit + ")", "humidity": 80,
				"position": map[string]any{"latitude": 1, "longitude": 2}, "observedAt": "2026-11-22T09:00:00Z"}, nil
		},
		"getForecast": func(ctx context.Context, args json.RawMessage) (any, error) {
			return nil, errors.New("forecast service down")
		},
		"getAlerts": func(ctx context.Context, args json.RawMessage) (any, error) { panic("boom") },
		"findStations": func(ctx context.Context, args json.RawMessage) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
		"convertTemperature": func(ctx context.Context, args json.RawMessage) (any, error) { return 57.2, nil },
	}
	var tools []runtime.Tool
	for _, s := range specs {
		tools = append(tools, runtime.Tool{Spec: s, Func: funcs[s.Name]})
	}
	return runtime.NewToolLibrary(tools...)
}

// connect serves specs over the SDK's in-memory transports and returns a
// client session.
func connect(t *testing.T, specs []runtime.ToolSpecification, lib *runtime.ToolLibrary) *sdk.ClientSession {
	t.Helper()
	return connectVersion(t, specs, lib, "")
}

// connectVersion is connect with a client of MCP version (""; the SDK's
// latest).
func connectVersion(t *testing.T, specs []runtime.ToolSpecification, lib *runtime.ToolLibrary, version string) *sdk.ClientSession {
	t.Helper()
	srv, err := mcp.NewServer("weather", "test", lib, specs, runtime.WithToolTimeout(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return serveInMemory(t, srv, sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil), &sdk.ClientSessionOptions{ProtocolVersion: version})
}

// serveInMemory connects client to srv over the SDK's in-memory
// transports; both sessions are closed when the test ends.
func serveInMemory(tb testing.TB, srv *sdk.Server, client *sdk.Client, opts *sdk.ClientSessionOptions) *sdk.ClientSession {
	tb.Helper()
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ss.Close() })
	cs, err := client.Connect(ctx, ct, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestListToolsMatchesSchemaTarget: gramc mcp lists each tool as `gramc
// schema --target mcp` emits it; a client of MCP 2026-07-28 also gets the
// output schemas that do not describe an object (SEP-2106), which an
// earlier client would reject (issue 35.4).
func TestListToolsMatchesSchemaTarget(t *testing.T) {
	specs, entries := weather(t)
	bySpec := map[string]runtime.ToolSpecification{}
	for _, s := range specs {
		bySpec[s.Name] = s
	}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectVersion(t, specs, impl(specs), version)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tools) != len(specs) {
			t.Fatalf("%d tools listed, want %d", len(res.Tools), len(specs))
		}
		nonObject := 0
		for _, tool := range res.Tools {
			e := entries[tool.Name]
			var title string
			json.Unmarshal(e["title"], &title)
			if tool.Title != title {
				t.Errorf("%s: title %q, want %q", tool.Name, tool.Title, title)
			}
			in, _ := json.Marshal(tool.InputSchema)
			if compact(t, in) != compact(t, e["inputSchema"]) {
				t.Errorf("%s: inputSchema\n%s\nwant (gramc schema --target mcp)\n%s", tool.Name, in, e["inputSchema"])
			}
			// The mcp target describes MCP 2026-07-28: every result's
			// output schema. A host of an earlier version gets the
			// object ones only (it rejects the others).
			want, ok := e["outputSchema"]
			var root struct {
				Type string `json:"type"`
			}
			json.Unmarshal(want, &root)
			if ok && root.Type != "object" {
				nonObject++
				if version < "2026-07-28" {
					ok = false
				}
			}
			if ok {
				out, _ := json.Marshal(tool.OutputSchema)
				if compact(t, out) != compact(t, want) {
					t.Errorf("%s (%s): outputSchema\n%s\nwant\n%s", tool.Name, version, out, want)
				}
			} else if tool.OutputSchema != nil {
				t.Errorf("%s (%s): an outputSchema the mcp target does not emit, or this version does not allow", tool.Name, version)
			}
		}
		if nonObject == 0 {
			t.Errorf("%s: no tool with a non-object output schema: the test tests nothing", version)
		}
	}
}

func TestCalls(t *testing.T) {
	specs, _ := weather(t)
	cs := connect(t, specs, impl(specs))
	call := func(name string, args any) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	text := func(r *sdk.CallToolResult) string {
		var b strings.Builder
		for _, c := range r.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	// A valid call: defaults applied before the tool runs; a record result
	// is structured content too.
	r := call("getWeather", map[string]any{"city": "Paris"})
	if r.IsError || !strings.Contains(text(r), "rain in Paris (celsius)") || r.StructuredContent == nil {
		t.Errorf("valid call: error %v, %q, structured %v", r.IsError, text(r), r.StructuredContent)
	}
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"getWeather", map[string]any{"city": ""}, "invalid arguments for tool getWeather: at '/city'"},
		{"getWeather", map[string]any{"town": "Paris"}, "invalid arguments for tool getWeather"},
		{"getForecast", map[string]any{"city": "Paris"}, "forecast service down"},
		{"getAlerts", map[string]any{"position": map[string]any{"latitude": 1, "longitude": 2}}, "panic: boom"},
		{"findStations", map[string]any{"code": "LFPG"}, "timed out"},
	} {
		r := call(tc.name, tc.args)
		if !r.IsError || !strings.Contains(text(r), tc.want) {
			t.Errorf("%s %v: isError %v, %q; want an error with %q", tc.name, tc.args, r.IsError, text(r), tc.want)
		}
	}
	// An unknown tool is refused by the protocol.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "getWether"}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}

func TestBindingMismatch(t *testing.T) {
	specs, _ := weather(t)
	lib := impl(specs)
	changed := append([]runtime.ToolSpecification(nil), specs...)
	changed[0].Description = "something else"
	if _, err := mcp.NewServer("weather", "test", lib, changed); err == nil || !strings.Contains(err.Error(), changed[0].Name+": description differs") {
		t.Errorf("a spec that differs from the library's: %v", err)
	}
}

// BenchmarkMCPCall: one tools/call over the SDK's in-memory transport —
// validation, defaults, the tool (trivial here) and the protocol — so the
// figure is gramc's and the SDK's overhead per call.
func BenchmarkMCPCall(b *testing.B) {
	benchCalls(b, serveInMemory(b, benchServer(b), benchClient(), nil))
}

// benchServer serves sayHello, a trivial tool with a default, for the
// benchmarks of one call.
func benchServer(b *testing.B) *sdk.Server {
	spec := runtime.ToolSpecification{Name: "sayHello", Description: "Greets",
		Schema: json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world"}},"additionalProperties":false}`)}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) { return "Hello!", nil }})
	srv, err := mcp.NewServer("bench", "1", lib, []runtime.ToolSpecification{spec})
	if err != nil {
		b.Fatal(err)
	}
	return srv
}

func benchClient() *sdk.Client {
	return sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
}

// benchCalls times calls of benchServer's sayHello over cs.
func benchCalls(b *testing.B, cs *sdk.ClientSession) {
	ctx := context.Background()
	params := &sdk.CallToolParams{Name: "sayHello", Arguments: json.RawMessage(`{"personName":"Ada"}`)}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// TestAgentUsesMCPTools: an agent's declared tools bound to the tools of
// an MCP server (here gramc's own, in memory) run through the server; a
// declared tool whose MCP schema differs gets binding's named difference.
func TestAgentUsesMCPTools(t *testing.T) {
	specs, _ := weather(t)
	cs := connect(t, specs, impl(specs))
	tools, err := mcp.Tools(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	lib := runtime.NewToolLibrary(tools...)
	agent := runtime.Agent{Name: "weather_agent", Model: "OpenAI/gpt-4o-mini", Instruction: "Help", Tools: specs}
	model := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("getWeather", `{"city":"Lyon"}`), runtimetest.Call("getForecast", `{"city":"Lyon"}`)),
		runtimetest.Say("done"))
	resp, err := runtime.Run(context.Background(), model, agent, lib, "Weather in Lyon?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Invocations) != 2 || !strings.Contains(resp.Invocations[0].Result, "rain in Lyon (celsius)") ||
		resp.Invocations[1].Err == nil || !strings.Contains(resp.Invocations[1].Err.Error(), "forecast service down") {
		t.Errorf("invocations: %+v", resp.Invocations)
	}
	// A declaration that differs from what the server offers.
	changed := append([]runtime.ToolSpecification(nil), specs...)
	for i := range changed {
		if changed[i].Name == "getWeather" {
			changed[i].Schema = json.RawMessage(`{"type":"object","properties":{"city":{"type":"integer"}}}`)
		}
	}
	agent.Tools = changed
	if _, err := runtime.Bind(agent, lib); err == nil || !strings.Contains(err.Error(), "tool getWeather: schema differs at") {
		t.Errorf("binding to a differing MCP tool: %v", err)
	}
}

// TestStructuredOutputAndMeta: a structured result that does not match the
// advertised output schema is an isError result saying where; a title is
// carried and a deprecated tool says so in _meta.
func TestStructuredOutputAndMeta(t *testing.T) {
	spec := runtime.ToolSpecification{Name: "report", Title: "Report", Description: "Reports", Deprecated: true,
		Schema:       json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`)}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ OK bool }
		json.Unmarshal(args, &a)
		if a.OK {
			return map[string]any{"n": 3}, nil
		}
		return map[string]any{"n": "three"}, nil
	}})
	cs := connect(t, []runtime.ToolSpecification{spec}, lib)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Title != "Report" || tools.Tools[0].Meta["deprecated"] != true {
		t.Fatalf("tools/list: %v %+v", err, tools.Tools[0])
	}
	good, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "report", Arguments: map[string]any{"ok": true}})
	if err != nil || good.IsError || good.StructuredContent == nil {
		t.Errorf("a matching result: %v %+v", err, good)
	}
	bad, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "report", Arguments: map[string]any{"ok": false}})
	if err != nil || !bad.IsError || !strings.Contains(bad.Content[0].(*sdk.TextContent).Text, "does not match its output schema: at '/n'") {
		t.Errorf("a result that does not match: %v %+v", err, bad)
	}
}

// BenchmarkMCPCallStdio is BenchmarkMCPCall over the stdio transport gramc
// mcp uses: newline-delimited JSON through two OS pipes (the process
// boundary itself is not measured).
func BenchmarkMCPCallStdio(b *testing.B) {
	toServerR, toServerW, _ := os.Pipe()
	toClientR, toClientW, _ := os.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go benchServer(b).Run(ctx, mcp.NewIOTransport(toServerR, toClientW, nil)) //nolint:errcheck
	cs, err := benchClient().Connect(ctx, &sdk.IOTransport{Reader: toClientR, Writer: toServerW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	benchCalls(b, cs)
}

// TestByProtocolVersion: a String tool's result is structured content for
// a client of MCP 2026-07-28 (any JSON value, SEP-2106) and not for an
// earlier one, which requires an object; the tool list carries a long
// ttlMs; the deprecated logging capability is offered to the earlier
// client only (issue 35.4).
func TestByProtocolVersion(t *testing.T) {
	spec := runtime.ToolSpecification{Name: "greet", Description: "Greets",
		Schema:       json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"string"}`)}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		return "Hello, Ada!", nil
	}})
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		cs := connectVersion(t, []runtime.ToolSpecification{spec}, lib, version)
		newer := version >= "2026-07-28"
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := list.Tools[0].OutputSchema != nil; got != newer {
			t.Errorf("%s: outputSchema %v", version, list.Tools[0].OutputSchema)
		}
		if newer && time.Duration(list.TTLMs)*time.Millisecond != mcp.ToolListTTL {
			t.Errorf("%s: ttlMs %d, want %d", version, list.TTLMs, mcp.ToolListTTL.Milliseconds())
		}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", version, err, res)
		}
		if res.Content[0].(*sdk.TextContent).Text != "Hello, Ada!" {
			t.Errorf("%s: text %+v", version, res.Content[0])
		}
		sc, _ := json.Marshal(res.StructuredContent)
		if newer && string(sc) != `"Hello, Ada!"` || !newer && res.StructuredContent != nil {
			t.Errorf("%s: structuredContent %s", version, sc)
		}
		caps := cs.InitializeResult().Capabilities
		if got := caps.Logging != nil; got == newer {
			t.Errorf("%s: logging capability offered: %v", version, got)
		}
	}
}
