package gramctemporal

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

// TestWorkerBindsGoTools (issue 36.2): the worker of MainWithTools binds a
// tool no --tool names to its Go function; a --tool command still wins,
// and a tool with neither is named with the way to bind it. Parallel to
// cli's TestDoWithTools (the same binding for gramc; another module, so
// the set-up is written again).
func TestWorkerBindsGoTools(t *testing.T) {
	dir := t.TempDir()
	src := `[a:Tool {description: "A"} | (x::String)==>(::String)]
[b:Tool {description: "B"} | (x::String)==>(::String)]
[ab:Agent {instruction: "Use a and b.", model: "OpenAI/gpt-4o-mini"} | a, b]
`
	if err := os.WriteFile(filepath.Join(dir, "ab.gram"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	runner := toolcmd.NewRunner(os.Environ())
	defer runner.Close()
	goTool := func(name string) runtime.ToolFunc {
		return func(context.Context, json.RawMessage) (any, error) { return "go " + name, nil }
	}
	tools := map[string]runtime.ToolFunc{"a": goTool("a"), "b": goTool("b")}
	bound, err := bindAgents([]string{dir}, nil, []string{"b=echo command b"}, tools, runner)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "go a", "b": "command b"} {
		inv := bound[0].Call(context.Background(), runtime.ToolCall{ID: "1", Name: name, Arguments: `{"x":"y"}`})
		if inv.Err != nil || strings.TrimSpace(inv.Result) != want {
			t.Errorf("tool %s: %q, %v; want %q", name, inv.Result, inv.Err, want)
		}
	}
	if _, err := bindAgents([]string{dir}, nil, nil, map[string]runtime.ToolFunc{"a": goTool("a")}, runner); err == nil || !strings.Contains(err.Error(), "no command for tool b: bind it with --tool b=COMMAND") {
		t.Errorf("a missing tool: %v", err)
	}
}
