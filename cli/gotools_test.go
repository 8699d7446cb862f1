package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestDoWithTools (issue 36.2): a program that calls DoWithTools is gramc
// with Go tools built in: gramc test runs them for results "bound", gramc
// mcp serves them, and gramc run and the agents of gramc mcp --agents run
// them.
//
// Parallel to gramctemporal's TestWorkerBindsGoTools (another module):
// the same package of a Go-bound tool, written to a directory, for the
// worker's binding instead of gramc's commands.
func TestDoWithTools(t *testing.T) {
	dir := t.TempDir()
	src := `[lookUp:Tool {description: "Looks up a city's population"} | (city::String)==>(::Integer)]
[cities:Agent {instruction: "Answer with lookUp.", model: "OpenAI/gpt-4o-mini"} | lookUp]
[looksUp:Test {agent: "cities", input: "Paris?", results: "bound", answerContains: "2100000"} |
  (::Call {tool: "lookUp", args: {city: "Paris"}})
]
`
	if err := os.WriteFile(filepath.Join(dir, "cities.gram"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var calls []string
	tools := map[string]runtime.ToolFunc{"lookUp": func(_ context.Context, args json.RawMessage) (any, error) {
		calls = append(calls, string(args))
		return 2100000, nil
	}}
	var out, errs bytes.Buffer
	if code := DoWithTools(tools, []string{"test", "--scripted", "--format", "json", dir}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("gramc test: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if len(calls) != 1 || calls[0] != `{"city":"Paris"}` || !strings.Contains(out.String(), `"result": "2100000"`) {
		t.Errorf("calls %q, output:\n%s", calls, out.String())
	}

	// Without the Go tool, gramc test says how to bind it.
	out.Reset()
	if code := Do([]string{"test", "--scripted", dir}, strings.NewReader(""), &out, &errs); code != ExitProblem || !strings.Contains(out.String(), "bind it with --tool lookUp=COMMAND") {
		t.Errorf("without the Go tool: exit %d\n%s", code, out.String())
	}

	// gramc mcp serves the Go tool.
	code, mcpOut, mcpErrs := mcpSession(t, tools, []string{"mcp", dir},
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookUp","arguments":{"city":"Lyon"}}}`)
	if code != 0 {
		t.Fatalf("gramc mcp: exit %d\n%s", code, mcpErrs)
	}
	if len(calls) != 2 || calls[1] != `{"city":"Lyon"}` || !strings.Contains(mcpOut, `2100000`) {
		t.Errorf("calls %q, mcp output:\n%s", calls, mcpOut)
	}

	// gramc run runs it, and so does an agent gramc mcp --agents serves.
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(
		runtimetest.ToolCallsReply(runtimetest.FakeCall{Name: "lookUp", Arguments: `{"city":"Nice"}`}),
		runtimetest.TextReply("Nice: 340000"),
		runtimetest.ToolCallsReply(runtimetest.FakeCall{Name: "lookUp", Arguments: `{"city":"Metz"}`}),
		runtimetest.TextReply("Metz: 120000"),
	))
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	out.Reset()
	errs.Reset()
	if code := DoWithTools(tools, []string{"run", dir, "Nice?"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("gramc run: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if len(calls) != 3 || calls[2] != `{"city":"Nice"}` || out.String() != "Nice: 340000\n" {
		t.Errorf("calls %q, run output:\n%s", calls, out.String())
	}
	code, mcpOut, mcpErrs = mcpSession(t, tools, []string{"mcp", "--agents", dir},
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"cities","arguments":{"input":"Metz?"}}}`)
	if code != 0 {
		t.Fatalf("gramc mcp --agents: exit %d\n%s", code, mcpErrs)
	}
	if len(calls) != 4 || calls[3] != `{"city":"Metz"}` || !strings.Contains(mcpOut, `Metz: 120000`) {
		t.Errorf("calls %q, mcp --agents output:\n%s", calls, mcpOut)
	}
}

// mcpSession runs gramc mcp (args) with tools built in, as a host meets
// it: initialize, then call (a request of id 2). The session ends
// (standard input closes) once the call is answered, as a host's does, or
// after 10 s without the answer. It returns the exit code, every line the
// server wrote and its standard error.
func mcpSession(t *testing.T, tools map[string]runtime.ToolFunc, args []string, call string) (code int, stdoutLines, stderr string) {
	t.Helper()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
		call,
	}, "\n") + "\n"
	stdin, toMCP := io.Pipe()
	fromMCP, stdout := io.Pipe()
	var mcpOut bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		giveUp := time.AfterFunc(10*time.Second, func() { toMCP.Close() })
		go io.WriteString(toMCP, in)
		sc := bufio.NewScanner(fromMCP)
		for sc.Scan() {
			fmt.Fprintf(&mcpOut, "%s\n", sc.Bytes())
			if strings.Contains(sc.Text(), `"id":2`) {
				giveUp.Stop()
				toMCP.Close()
			}
		}
	}()
	var errs bytes.Buffer
	code = DoWithTools(tools, args, stdin, stdout, &errs)
	stdin.Close() // gramc mcp may have ended without reading it all
	stdout.Close()
	<-read
	return code, mcpOut.String(), errs.String()
}
