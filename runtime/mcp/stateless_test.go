package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
)

// greetServer is a server whose one tool returns a String: its output
// schema, {"type":"string"}, does not describe an object.
func greetServer(t testing.TB) *sdk.Server {
	spec := runtime.ToolSpecification{Name: "greet", Description: "Greets",
		Schema:       json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"string"}`)}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ Name string }
		json.Unmarshal(args, &a)
		return "Hello, " + a.Name + "!", nil
	}})
	s, err := mcp.NewServer("t", "1", lib, []runtime.ToolSpecification{spec})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHTTPStatelessNonObjectSchema (issue 48.6): the SDK's client at MCP
// 2026-07-28 over HTTP — served statelessly by NewHTTPHandler, behind the
// token — lists a tool whose output schema is not an object's and calls
// it, getting the String as structured content; a 2025-11-25 client of the
// same handler keeps a session and gets neither (it would reject them).
func TestHTTPStatelessNonObjectSchema(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(greetServer(t), mcp.HTTPOptions{Token: "s3cret-token"}))
	defer srv.Close()
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		newer := version >= "2026-07-28"
		var sessions []string
		hc := &http.Client{Transport: recordSessions{bearer{"s3cret-token"}, &sessions}}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
			&sdk.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: hc}, &sdk.ClientSessionOptions{ProtocolVersion: version})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", version, err)
		}
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatalf("%s: %v", version, err)
		}
		schema, _ := json.Marshal(list.Tools[0].OutputSchema)
		if newer && string(schema) != `{"type":"string"}` || !newer && list.Tools[0].OutputSchema != nil {
			t.Errorf("%s: outputSchema %s", version, schema)
		}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
		if err != nil || res.IsError {
			t.Fatalf("%s: call: %v %+v", version, err, res)
		}
		if text := res.Content[0].(*sdk.TextContent).Text; text != "Hello, Ada!" {
			t.Errorf("%s: content %q", version, text)
		}
		got, _ := json.Marshal(res.StructuredContent)
		if newer && string(got) != `"Hello, Ada!"` || !newer && res.StructuredContent != nil {
			t.Errorf("%s: structuredContent %s", version, got)
		}
		cs.Close()
		if newer != (len(sessions) == 0) {
			t.Errorf("%s: session ids given %q (2026-07-28 has no sessions, earlier versions keep one)", version, sessions)
		}
	}
}

// recordSessions records the session ids a server gives.
type recordSessions struct {
	next http.RoundTripper
	ids  *[]string
}

func (r recordSessions) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err == nil && resp.Header.Get("Mcp-Session-Id") != "" {
		*r.ids = append(*r.ids, resp.Header.Get("Mcp-Session-Id"))
	}
	return resp, err
}

// meta2026 is the _meta every MCP 2026-07-28 request carries.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// headers2026 are the headers of a 2026-07-28 request for method (and a
// tool's name).
func headers2026(method, name string, extra http.Header) http.Header {
	h := http.Header{"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {method}}
	if name != "" {
		h.Set("Mcp-Name", name)
	}
	for k, v := range extra {
		h[k] = v
	}
	return h
}

// TestHTTPStatelessSafeguards (issue 48.6): a request at MCP 2026-07-28,
// served by the stateless handler, passes every check NewHTTPHandler makes
// of the others: the token, the Origin, the body's bound, the depth limit
// and exact ids.
func TestHTTPStatelessSafeguards(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{Token: "s3cret-token"}))
	defer srv.Close()
	auth := http.Header{"Authorization": {"Bearer s3cret-token"}}
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta2026 + `}}`

	resp, body := postMCP(t, srv.URL, list, headers2026("tools/list", "", auth))
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"echo"`) || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("tools/list: %d %q (session %q)", resp.StatusCode, body, resp.Header.Get("Mcp-Session-Id"))
	}
	if resp, _ := postMCP(t, srv.URL, list, headers2026("tools/list", "", nil)); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d, want 401", resp.StatusCode)
	}
	if resp, _ := postMCP(t, srv.URL, list, headers2026("tools/list", "", http.Header{"Authorization": auth["Authorization"], "Origin": {"https://evil.example.com"}})); resp.StatusCode != http.StatusForbidden {
		t.Errorf("from another origin: %d, want 403", resp.StatusCode)
	}
	// Without the header, a version in _meta is still served statelessly:
	// the header's absence is the error, not the version.
	if resp, body := postMCP(t, srv.URL, list, auth); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "-32020") {
		t.Errorf("no MCP-Protocol-Version header: %d %s, want 400 and HeaderMismatch (-32020)", resp.StatusCode, body)
	}

	deep := `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{` + meta2026 + `,"x":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}}`
	resp, body = postMCP(t, srv.URL, deep, headers2026("tools/list", "", auth))
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"the message is nested deeper than the limit of %d levels"}}`, mcp.MaxDepth)
	if resp.StatusCode != http.StatusBadRequest || strings.TrimSpace(body) != want {
		t.Errorf("300 levels: %d %s", resp.StatusCode, body)
	}

	big := `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{` + meta2026 + `,"name":"echo","arguments":{"text":"` + strings.Repeat("a", mcp.MaxRequestBodyBytes) + `"}}}`
	if resp, _ := postMCP(t, srv.URL, big, headers2026("tools/call", "echo", auth)); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over MaxRequestBodyBytes: %d, want 413", resp.StatusCode)
	}

	for _, id := range []string{`2.5`, `9007199254740993`, `"gramc-id-1"`} {
		call := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + meta2026 + `,"name":"echo","arguments":{"text":"hi"}}}`
		_, body := postMCP(t, srv.URL, call, headers2026("tools/call", "echo", auth))
		if !strings.Contains(body, `"id":`+id+`,`) || !strings.Contains(body, "hi") {
			t.Errorf("id %s answered: %s", id, body)
		}
	}
}

// TestHTTPStatelessDisconnectCancels (issue 48.6): at MCP 2026-07-28 too,
// a call whose client goes away is cancelled: the tool's context ends.
func TestHTTPStatelessDisconnectCancels(t *testing.T) {
	b := serveBlockingTool(t)
	b.disconnectCancels(t, func(ctx context.Context) (*http.Response, error) {
		call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026 + `,"name":"block","arguments":{}}}`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.url, strings.NewReader(call))
		req.Header = headers2026("tools/call", "block", http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}})
		return http.DefaultClient.Do(req)
	})
}

// TestDiscover2026 (issue 48.6): at MCP 2026-07-28, whose server/discover
// must declare what the server answers (SEP-2575), the prompts and
// resources the SDK answers (empty lists, with caching hints) are
// declared, no list changes (the tools are fixed) and logging is not
// offered; an unknown resource is the SDK's invalid-params error.
func TestDiscover2026(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(t), mcp.HTTPOptions{}))
	defer srv.Close()
	post := func(method, name, params string) (int, string) {
		resp, body := postMCP(t, srv.URL, `{"jsonrpc":"2.0","id":3,"method":"`+method+`","params":{`+meta2026+params+`}}`, headers2026(method, name, nil))
		return resp.StatusCode, body
	}
	status, body := post("server/discover", "", "")
	var discover struct {
		Result struct {
			Capabilities map[string]json.RawMessage `json:"capabilities"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(messageOf(body)), &discover); err != nil {
		t.Fatalf("server/discover: %v: %s", err, body)
	}
	caps := discover.Result.Capabilities
	if status != http.StatusOK || string(caps["tools"]) != `{}` || string(caps["prompts"]) != `{}` || string(caps["resources"]) != `{}` || caps["logging"] != nil {
		t.Errorf("server/discover: %d %s; want tools, prompts and resources without listChanged, no logging", status, body)
	}
	for _, method := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
		if status, body := post(method, "", ""); status != http.StatusOK || !strings.Contains(body, `"ttlMs":`) || !strings.Contains(body, `[]`) {
			t.Errorf("%s: %d %s, want an empty list with ttlMs", method, status, body)
		}
	}
	if _, body := post("resources/read", "test://none", `,"uri":"test://none"`); !strings.Contains(body, `"code":-32602`) {
		t.Errorf("resources/read of an unknown resource: %d %s, want -32602", status, body)
	}
}

// messageOf is the JSON-RPC message of a response's body: the body, or
// the data of its event stream's one event.
func messageOf(body string) string {
	if _, data, ok := strings.Cut(body, "data: "); ok {
		return strings.TrimSpace(data)
	}
	return body
}

// FuzzHTTPHandler posts arbitrary bodies with arbitrary
// MCP-Protocol-Version headers to NewHTTPHandler, whichever of its two
// handlers (sessions, stateless) they reach: it never panics or hangs, and
// a JSON answer is JSON.
func FuzzHTTPHandler(f *testing.F) {
	f.Add("2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta2026+`,"name":"echo","arguments":{"text":"hi"}}}`)
	f.Add("", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta2026+`}}`)
	f.Add("", `[{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}]`)
	f.Add("2025-06-18", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	f.Add("9999-99-99", `{"jsonrpc":"2.0","id":2.5,"method":"server/discover","params":{"_meta":null}}`)
	f.Add("2026-07-28", `{"params":[`)
	srv := httptest.NewServer(mcp.NewHTTPHandler(echoServer(f), mcp.HTTPOptions{BodyTimeout: 2 * time.Second}))
	f.Cleanup(srv.Close)
	client := &http.Client{Timeout: 10 * time.Second}
	f.Fuzz(func(t *testing.T, version, body string) {
		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		if err != nil {
			t.Skip()
		}
		req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
		if version != "" && !strings.ContainsAny(version, "\r\n\x00") {
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		resp, err := client.Do(req)
		if err != nil {
			if strings.Contains(err.Error(), "Client.Timeout") {
				t.Fatalf("no answer to %q (version %q): %v", body, version, err)
			}
			t.Skip() // a header the client refuses to send
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && len(data) > 0 && !json.Valid(data) {
			t.Fatalf("a JSON answer that is not JSON: %q", data)
		}
	})
}

// BenchmarkMCPCallHTTP: one tools/call over NewHTTPHandler on a loopback
// HTTP server, in a session (2025-11-25) and statelessly (2026-07-28,
// where each call is a whole request with its own ephemeral session).
func BenchmarkMCPCallHTTP(b *testing.B) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		b.Run(version, func(b *testing.B) {
			srv := httptest.NewServer(mcp.NewHTTPHandler(benchServer(b), mcp.HTTPOptions{}))
			defer srv.Close()
			cs, err := benchClient().Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.URL}, &sdk.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			benchCalls(b, cs)
		})
	}
}
