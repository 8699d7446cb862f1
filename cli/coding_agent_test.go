package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/docs"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
	"github.com/gramc-dev/gramc/runtime/mcp"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// codingAgentFiles is how many broken files the scripted coding agent
// brings to 0 errors.
const codingAgentFiles = 50

// docsExamples are the broken files made from docs/diagnostics.md's
// examples: each error code's first gram example that has an error on
// its own, in the page's order, taken again (under again/) until there
// are codingAgentFiles.
func docsExamples(t *testing.T) map[string]string {
	t.Helper()
	page := docs.Page("diagnostics.md")
	section := regexp.MustCompile("(?ms)^### `([a-z0-9-]+)`\n\n\\*error\\*\\..*?```gram\n(.*?)\n```")
	dir := t.TempDir()
	var names []string
	texts := map[string]string{}
	for _, m := range section.FindAllStringSubmatch(page, -1) {
		name := "cases/" + m[1] + ".gram"
		p := filepath.Join(dir, filepath.FromSlash(name))
		writeFiles(t, dir, map[string]string{name: m[2] + "\n"})
		_, ds, err := load.Packages([]string{p}, nil)
		if err != nil || !ds.HasErrors() {
			continue
		}
		names = append(names, name)
		texts[name] = m[2] + "\n"
	}
	if len(names) == 0 {
		t.Fatal("no example of docs/diagnostics.md has an error")
	}
	out := map[string]string{}
	for i := 0; len(out) < codingAgentFiles; i++ {
		name := names[i%len(names)]
		if i >= len(names) {
			out["again/"+strings.TrimPrefix(name, "cases/")] = texts[name]
			continue
		}
		out[name] = texts[name]
	}
	return out
}

// codingAgentPolicy is the scripted coding agent: a model that knows
// nothing of gram and follows only the server's instructions (the
// request's system text): it works with the tools they name, reads the
// tools' readable content as a model does, and edits a file (its own
// write_file, as a coding agent edits) only with the fix explain shows.
func codingAgentPolicy(turn *runtimetest.Turn, n int) runtimetest.Reply {
	for _, step := range []string{"`describe`", "call `check`", "call `fix`", "call `explain`"} {
		if !strings.Contains(turn.System, step) {
			return runtimetest.Reply{Text: "The instructions do not say " + step + "; I stop."}
		}
	}
	var file string
	for _, m := range turn.Messages {
		if m.Role == runtime.RoleUser {
			if f, ok := strings.CutSuffix(strings.TrimPrefix(m.Content, "Bring "), " to 0 errors."); ok {
				file = f
			}
		}
	}
	call := func(name string, args any) runtimetest.Reply {
		data, _ := json.Marshal(args)
		return runtimetest.Reply{ToolCalls: []runtimetest.FakeCall{{Name: name, Arguments: string(data)}}}
	}
	last := turn.Last()
	if last.Role != runtime.RoleTool {
		return call("check", map[string]any{"paths": []string{file}}) // step 2: check
	}
	text := last.Content
	firstError := func() string {
		m := regexp.MustCompile(`(?m)^\S+:\d+:\d+: error: .* \[([a-z0-9-]+)\]$`).FindStringSubmatch(text)
		if m == nil {
			return ""
		}
		return m[1]
	}
	switch {
	case strings.HasPrefix(text, "wrote "):
		return call("check", map[string]any{"paths": []string{file}}) // after every edit, check
	case strings.HasPrefix(text, "### `"):
		// explain: its example's fix, written over the file.
		m := regexp.MustCompile("(?s)\nThe fix:\n+```gram\n(.*?)\n```").FindStringSubmatch(text)
		if m == nil {
			return runtimetest.Reply{Text: "explain shows no fix; I stop."}
		}
		return call("write_file", map[string]any{"path": file, "text": m[1] + "\n"})
	case firstError() == "":
		return runtimetest.Reply{Text: file + ": 0 errors."}
	case strings.Contains(text, "left: "): // fix did not fix everything
		return call("explain", map[string]any{"code": firstError()})
	case strings.Contains(text, "    fix, "):
		return call("fix", map[string]any{"paths": []string{file}, "all": strings.Contains(text, "guess")})
	}
	return call("explain", map[string]any{"code": firstError()})
}

// TestCodingAgent: a scripted coding agent, replayed from a cassette
// (GRAMC_RECORD=1 re-records it against the repository's fake OpenAI
// server answering with codingAgentPolicy), takes 50 broken files made
// from docs/diagnostics.md's examples and, following only gramc mcp
// --compiler's instructions, brings each to 0 errors in at most 3 calls
// of the compiler's tools (its own edits of a file apart).
func TestCodingAgent(t *testing.T) {
	root := t.TempDir()
	files := docsExamples(t)
	writeFiles(t, root, files)
	cs := compilerSession(t, root)
	ctx := context.Background()
	served, err := mcp.Tools(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{} // compiler tool calls per file
	current := ""
	var lib []runtime.Tool
	var specs []runtime.ToolSpecification
	for _, tool := range served {
		if tool.Spec.Name != "check" && tool.Spec.Name != "fix" && tool.Spec.Name != "explain" {
			continue
		}
		f := tool.Func
		tool.Func = func(ctx context.Context, args json.RawMessage) (any, error) {
			calls[current]++
			return f(ctx, args)
		}
		lib = append(lib, tool)
		specs = append(specs, tool.Spec)
	}
	write := runtime.ToolSpecification{Name: "write_file", Description: "Writes a file's whole text",
		Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"text":{"type":"string"}},"required":["path","text"],"additionalProperties":false}`)}
	lib = append(lib, runtime.Tool{Spec: write, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ Path, Text string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if a.Path != current {
			return nil, fmt.Errorf("the agent wrote %s while fixing %s", a.Path, current)
		}
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(a.Path)), []byte(a.Text), 0o644); err != nil {
			return nil, err
		}
		return "wrote " + a.Path, nil
	}})
	specs = append(specs, write)
	agent := runtime.Agent{Name: "coder", Model: "OpenAI/gpt-4o-mini", Instruction: cs.InitializeResult().Instructions, Tools: specs, MaxIterations: 8}

	mode := cassette.ModeFromEnv()
	key, base := cassette.ReplayKey, "http://127.0.0.1:1/v1"
	if mode == cassette.Record {
		key, base = "test-key", runtimetest.NewProviderServer(t, runtimetest.OpenAI, codingAgentPolicy).URL
	}
	s, err := cassette.Open(filepath.Join("testdata", "coding-agent.cassette"), mode, key)
	if err != nil {
		t.Fatal(err)
	}
	model, err := clients.New(agent.Model, clientopt.WithHTTPClient(s.Client), clientopt.WithAPIKey(key), clientopt.WithBaseURL(base))
	if err != nil {
		t.Fatal(err)
	}
	names := sortedKeys(files)
	for _, name := range names {
		current = name
		resp, err := runtime.Run(ctx, model, agent, runtime.NewToolLibrary(lib...), "Bring "+name+" to 0 errors.", nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.Content != name+": 0 errors." {
			t.Errorf("%s: the agent answered %q", name, resp.Content)
		}
		if calls[name] > 3 {
			t.Errorf("%s: %d calls of the compiler's tools, want at most 3", name, calls[name])
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Every file checks clean, as gramc check sees it.
	var paths []string
	for _, name := range names {
		paths = append(paths, filepath.Join(root, filepath.FromSlash(name)))
	}
	for _, p := range paths {
		if _, ds, err := load.Packages([]string{p}, nil); err != nil || ds.HasErrors() {
			t.Errorf("%s: still %v %v", p, err, ds.Errors())
		}
	}
	hist := map[int]int{}
	for _, name := range names {
		hist[calls[name]]++
	}
	t.Logf("%d files, compiler calls per file: %v", len(names), hist)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
