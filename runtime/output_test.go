package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestResultOfDeclaredType (issue 22.7): a tool result that is not of the
// tool's declared return type (its OutputSchema) is a BadResult tool error
// saying how it differs, from Call (gramc mcp, durable runs) and from Run
// (gramc run) alike; a String result is its text, whatever it looks like.
// Before, Run passed every result to the model, and only runtime/mcp
// checked (records only).
func TestResultOfDeclaredType(t *testing.T) {
	const record = `{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"],"additionalProperties":false}`
	for _, c := range []struct {
		name, output string
		result       any
		want         string // "" for a valid result, else the error's text
	}{
		{"integer", `{"type":"integer"}`, "42", ""},
		{"integer", `{"type":"integer"}`, 42, ""},
		{"integer", `{"type":"integer"}`, "many", "the result of tool integer does not match its output schema: at '/': got string, want integer (the result is not JSON: invalid character 'm' looking for beginning of value)"},
		{"integer", `{"type":"integer"}`, 4.5, "the result of tool integer does not match its output schema: at '/': got number, want integer"},
		{"integer", `{"type":"integer"}`, `"42"`, "the result of tool integer does not match its output schema: at '/': got string, want integer"},
		{"string", `{"type":"string"}`, "Hello, Ada", ""},
		{"string", `{"type":"string"}`, "42", ""},
		{"string", `{"type":"string"}`, `{"not": "a string"}`, ""},
		{"string", `{"type":"string"}`, "", ""},
		{"enum", `{"type":"string","enum":["red","green"]}`, "red", ""},
		{"enum", `{"type":"string","enum":["red","green"]}`, "pink", "the result of tool enum does not match its output schema: at '/': value must be one of"},
		{"record", record, map[string]any{"lat": 1.5, "lon": 2}, ""},
		{"record", record, `{"lat": 1.5, "lon": 2}`, ""},
		{"record", record, `{"lat": "north", "lon": 2}`, "the result of tool record does not match its output schema: at '/lat': got string, want number"},
		{"record", record, "somewhere", "the result of tool record does not match its output schema: at '/': got string, want object (the result is not JSON"},
		{"array", `{"type":"array","items":{"type":"string"}}`, []string{"a", "b"}, ""},
		{"array", `{"type":"array","items":{"type":"string"}}`, "a, b", "got string, want array"},
		{"untyped", ``, "anything at all", ""},
	} {
		spec := runtime.ToolSpecification{Name: c.name, Description: "d", Schema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(c.output)}
		agent := runtime.Agent{Name: "a", Tools: []runtime.ToolSpecification{spec}}
		lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(context.Context, json.RawMessage) (any, error) { return c.result, nil }})
		bound, err := runtime.Bind(agent, lib)
		if err != nil {
			t.Fatal(err)
		}
		check := func(how string, inv runtime.Invocation) {
			t.Helper()
			var tce *runtime.ToolCallError
			switch {
			case c.want == "" && inv.Err != nil:
				t.Errorf("%s, %s returning %v: %v", how, c.name, c.result, inv.Err)
			case c.want != "" && (!errors.As(inv.Err, &tce) || tce.Kind != runtime.BadResult || !strings.Contains(tce.Message, c.want)):
				t.Errorf("%s, %s returning %v: error %v, want a %s error containing %q", how, c.name, c.result, inv.Err, runtime.BadResult, c.want)
			}
		}
		check("Call", bound.Call(context.Background(), runtime.ToolCall{ID: "1", Name: c.name, Arguments: `{}`}))

		model := runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call(c.name, `{}`)), runtimetest.Say("done"))
		resp, err := bound.Run(context.Background(), model, "go", nil)
		if err != nil || len(resp.Invocations) != 1 {
			t.Fatalf("Run: %v %+v", err, resp)
		}
		check("Run", resp.Invocations[0])
	}
}
