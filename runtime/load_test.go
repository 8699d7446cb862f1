package runtime_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

const seedDir = "../testdata/examples/seed"

func TestLoadAgent(t *testing.T) {
	a, err := runtime.LoadAgent(filepath.Join(seedDir, "helloGoodbyeAgent.gram"), "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "hello_goodbye_agent" || a.Model != "OpenAI/gpt-4o-mini" || !strings.Contains(a.Instruction, "sayGoodbye") || len(a.Tools) != 2 {
		t.Fatalf("agent = %+v", a)
	}
	hello := a.Tools[0]
	if hello.Name != "sayHello" || hello.Description != "Returns a friendly greeting message for the given name" ||
		!strings.Contains(string(hello.Schema), `"default":"world"`) || hello.Signature == "" {
		t.Errorf("sayHello spec = %+v", hello)
	}

	// It runs: the spec's schema gives the default.
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: a.Tools[0], Func: greet("Hello")}, runtime.Tool{Spec: a.Tools[1], Func: greet("Goodbye")})
	model := runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("sayGoodbye", `{}`)), runtimetest.Say("bye"))
	resp, err := runtime.Run(context.Background(), model, a, lib, "bye", nil)
	if err != nil || resp.Invocations[0].Result != "Goodbye, world!" {
		t.Errorf("run: %v %+v", err, resp)
	}
}

func TestSpecFromToolMatchesSchema(t *testing.T) {
	pkgs, diags, err := check.Load([]string{"../testdata/examples/..."})
	if err != nil || diags.HasErrors() {
		t.Fatalf("load: %v %v", err, diags.Err())
	}
	n := 0
	for _, p := range pkgs {
		for _, tool := range p.Tools {
			spec, err := runtime.SpecFromTool(tool)
			if err != nil {
				t.Fatal(err)
			}
			params, _ := schema.Parameters(tool)
			out, _ := schema.Output(tool)
			if string(spec.Schema) != string(params) || string(spec.OutputSchema) != string(out) || spec.Signature != tool.Signature {
				t.Errorf("%s: spec differs from the schema emitter", tool.Name)
			}
			n++
		}
	}
	if n < 3 {
		t.Errorf("only %d tools checked", n)
	}
}

func TestLoadAgentErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var ce *runtime.ConfigurationError
	if _, err := runtime.LoadAgent(filepath.Join(seedDir, "helloGoodbyeAgent.gram"), "hello_goodby_agent"); !errors.As(err, &ce) ||
		!strings.Contains(err.Error(), `did you mean "hello_goodbye_agent"?`) {
		t.Errorf("misspelt agent: %v", err)
	}
	if _, err := runtime.LoadAgentFiles([]string{filepath.Join(seedDir, "helloAgent.gram"), filepath.Join(seedDir, "helloGoodbyeAgent.gram")}, ""); err == nil ||
		!strings.Contains(err.Error(), "hello_goodbye_agent, hello_world_agent") {
		t.Errorf("two agents, no name: %v", err)
	}
	if _, err := runtime.LoadAgent(filepath.Join(seedDir, "sayHello.gram"), ""); !errors.As(err, &ce) || !strings.Contains(err.Error(), "no agent") {
		t.Errorf("no agent: %v", err)
	}
	bad := write("bad.gram", "[a:Agent {model: \"OpenAI/x\", instruction: \"i\"} | nosuchTool]\n")
	_, err := runtime.LoadAgent(bad, "")
	var el diag.ErrorList
	if !errors.As(err, &ce) || !errors.As(err, &el) || !strings.Contains(err.Error(), "bad.gram:1:") {
		t.Errorf("checker errors: %v", err)
	}
	if _, err := runtime.LoadAgent(filepath.Join(dir, "missing.gram"), ""); !errors.As(err, &ce) {
		t.Errorf("missing file: %v", err)
	}
}
