package gramfile_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

const seedDir = "../testdata/examples/seed"

func TestLoadAgent(t *testing.T) {
	a, err := gramfile.LoadAgent(filepath.Join(seedDir, "helloGoodbyeAgent.gram"), "")
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
	if _, err := gramfile.LoadAgent(filepath.Join(seedDir, "helloGoodbyeAgent.gram"), "hello_goodby_agent"); !errors.As(err, &ce) ||
		!strings.Contains(err.Error(), `did you mean hello_goodbye_agent?`) {
		t.Errorf("misspelt agent: %v", err)
	}
	two := filepath.Join(dir, "two")
	if err := os.Mkdir(two, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"helloAgent.gram", "helloGoodbyeAgent.gram"} {
		src, err := os.ReadFile(filepath.Join(seedDir, name))
		if err != nil {
			t.Fatal(err)
		}
		write(filepath.Join("two", name), string(src))
	}
	if _, err := gramfile.LoadAgent(two, ""); err == nil ||
		!strings.Contains(err.Error(), "hello_goodbye_agent, hello_world_agent") {
		t.Errorf("two agents, no name: %v", err)
	}
	if _, err := gramfile.LoadAgent(filepath.Join(seedDir, "sayHello.gram"), ""); !errors.As(err, &ce) || !strings.Contains(err.Error(), "no agent") {
		t.Errorf("no agent: %v", err)
	}
	bad := write("bad.gram", "[a:Agent {model: \"OpenAI/x\", instruction: \"i\"} | nosuchTool]\n")
	_, err := gramfile.LoadAgent(bad, "")
	var el diag.ErrorList
	if !errors.As(err, &ce) || !errors.As(err, &el) || !strings.Contains(err.Error(), "bad.gram:1:") {
		t.Errorf("checker errors: %v", err)
	}
	if _, err := gramfile.LoadAgent(filepath.Join(dir, "missing.gram"), ""); !errors.As(err, &ce) {
		t.Errorf("missing file: %v", err)
	}
}

// TestStrictDefaults: OpenAI's strict schemas carry no `default`; the
// runtime takes a strict tool's defaults from its standard schema (data),
// never from description prose, when the model sends null, and takes a
// null for an optional parameter without a default as absent (issue
// 20.7: "Units. Default: 3." in a description became a default of 3, and
// for a String parameter made the valid call an error).
func TestStrictDefaults(t *testing.T) {
	dir := t.TempDir()
	src := `[Unit:Enum {values: ["c", "f"]}]
[P:Type | (x::Number {default: 1.5, description: "Default: 9. is not it"}), (label::String {optional: true})]
[strictTool:Tool {description: "S", strict: true} |
  (city::String)==>
  (unit::Unit {default: "c"})==>
  (days::Integer {default: 3, examples: [5]})==>
  (where::P {optional: true})==>
  (n::Integer {optional: true, description: "Units. Default: 3."})==>
  (s::String {optional: true, description: "Units. Default: 3."})==>
  (::String)
]
[a:Agent {model: "OpenAI/gpt-4o", instruction: "i"} | strictTool]
`
	path := filepath.Join(dir, "strict.gram")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	agent, err := gramfile.LoadAgent(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if !agent.Tools[0].Strict || strings.Contains(string(agent.Tools[0].Schema), `"default"`) {
		t.Fatalf("not a strict schema: %s", agent.Tools[0].Schema)
	}
	var got string
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: agent.Tools[0], Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		got = string(args)
		return "ok", nil
	}})
	model := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("strictTool", `{"city":"x","unit":null,"days":null,"where":{"x":null,"label":null},"n":null,"s":null}`)),
		runtimetest.Say("done"))
	resp, err := runtime.Run(context.Background(), model, agent, lib, "go", nil)
	if err != nil || resp.Invocations[0].Err != nil {
		t.Fatalf("%v %v", err, resp.Invocations[0].Err)
	}
	if want := `{"city":"x","days":3,"unit":"c","where":{"x":1.5}}`; got != want {
		t.Errorf("tool got %s, want %s", got, want)
	}
}

func greet(greeting string) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ PersonName string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return greeting + ", " + a.PersonName + "!", nil
	}
}
