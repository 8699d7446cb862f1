package runtime_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestGeneratedCodeDoesNotLinkTheCompiler: a program that imports only
// generated code, the runtime and a provider client (openai, anthropic,
// gemini) or the MCP server (examples/hello, which is both) links
// none of gramc's compiler packages nor their dependencies (issue 10.1):
// a user's binary carries the runtime alone.
func TestGeneratedCodeDoesNotLinkTheCompiler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/gramc-dev/gramc/examples/hello",
		"github.com/gramc-dev/gramc/runtime/anthropic", "github.com/gramc-dev/gramc/runtime/gemini").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, "github.com/gramc-dev/gramc/runtime") {
		t.Fatalf("go list -deps gave %d packages; the test is broken:\n%s", len(deps), out)
	}
	forbidden := []string{
		"github.com/gramc-dev/gramc/syntax", "github.com/gramc-dev/gramc/check", "github.com/gramc-dev/gramc/ast",
		"github.com/gramc-dev/gramc/diag", "github.com/gramc-dev/gramc/codegen/", "github.com/gramc-dev/gramc/load",
		"github.com/gramc-dev/gramc/gramfile",
		"github.com/alecthomas/participle", "github.com/invopop/jsonschema", "yaml",
	}
	for _, d := range deps {
		for _, f := range forbidden {
			if strings.HasPrefix(d, f) || strings.Contains(f, "yaml") && strings.Contains(d, "yaml") {
				t.Errorf("examples/hello links %s", d)
			}
		}
	}
}

// TestCompilerSharesOnlyTheSpecType: the compiler's schema emitter
// produces the runtime's tool specification type (toolspec, a
// leaf) and links nothing else of the runtime, so neither side of the
// one ToolSpecification type pulls the other in.
func TestCompilerSharesOnlyTheSpecType(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/gramc-dev/gramc/codegen/schema", "github.com/gramc-dev/gramc/toolspec").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/gramc-dev/gramc/toolspec") {
		t.Fatalf("codegen/schema does not link toolspec; the test is broken:\n%s", out)
	}
	for _, d := range deps {
		if (d == "github.com/gramc-dev/gramc/runtime" || strings.HasPrefix(d, "github.com/gramc-dev/gramc/runtime/")) && d != "github.com/gramc-dev/gramc/toolspec" {
			t.Errorf("codegen/schema links %s", d)
		}
	}
	out, err = exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", "github.com/gramc-dev/gramc/toolspec").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "gramc-dev/gramc") {
		t.Errorf("toolspec must stay a leaf; it imports %s", out)
	}
}
