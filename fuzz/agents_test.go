package fuzz

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// FuzzListedAgent: whatever a caller's model sends a listed agent as
// arguments, and whatever the listed agent's model answers (docs/language.md
// §2.7, "Agents as tools"), the caller's run goes on to its answer: the
// call is the listed agent's valid value, or a *runtime.ToolCallError the
// caller's model reads — never a panic, a hang or a failed caller.
func FuzzListedAgent(f *testing.F) {
	for _, s := range [][2]string{
		{`{"ticket":"down"}`, `{"city":"Paris"}`},
		{`{"ticket":7}`, `{"city":"Paris"}`},
		{`{}`, ``},
		{`"{\"ticket\":\"x\"}"`, `{"city":`},
		{`not json`, `Sure: {"city":"Rome"}`},
		{`{"ticket":"` + strings.Repeat("é", 3000) + `"}`, strings.Repeat("[", 5000)},
		{`{"ticket":"x","extra":1}`, `{"city":"x","days":1e400}`},
		{strings.Repeat(`{"a":`, 300), "\x00\xff"},
	} {
		f.Add(s[0], s[1])
	}
	zero := 0
	child := runtime.Agent{Name: "weather", Description: "Forecasts", Model: "OpenAI/gpt-4o-mini", Instruction: "x",
		Signature: &runtime.Signature{Input: json.RawMessage(`{"type":"object","properties":{"ticket":{"type":"string"}},"required":["ticket"],"additionalProperties":false}`),
			Message: "ticket", Output: json.RawMessage(argsSchema), OutputName: "Weather", OutputMode: provider.OutputNative, OutputRetries: &zero}}
	parent := runtime.Agent{Name: "desk", Model: "Anthropic/claude-sonnet-4-5", Instruction: "y",
		Tools: []runtime.ToolSpecification{runtime.AgentToolSpec(child)}, Agents: []runtime.Agent{child}}
	f.Fuzz(func(t *testing.T, args, answer string) {
		pm := runtimetest.NewScriptedModel(runtimetest.CallTools(runtime.ToolCall{ID: "c1", Name: "weather", Arguments: args}), runtimetest.Say("done"))
		cm := runtimetest.NewScriptedModel(runtimetest.Say(answer))
		resp, err := runtime.Run(context.Background(), pm, parent, nil, "go", nil,
			runtime.WithModels(func(runtime.Agent) (runtime.Model, error) { return cm, nil }))
		if err != nil {
			t.Fatalf("the caller failed: %v", err)
		}
		if resp.Content != "done" || len(resp.Invocations) != 1 {
			t.Fatalf("answer %q, invocations %d", resp.Content, len(resp.Invocations))
		}
		inv := resp.Invocations[0]
		if inv.Err != nil {
			var tce *runtime.ToolCallError
			if !errors.As(inv.Err, &tce) || tce.Message == "" {
				t.Fatalf("not a tool error: %#v", inv.Err)
			}
			return
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(inv.Result), &v); err != nil || v["city"] == nil || v["days"] == nil {
			t.Fatalf("result %s (%v): not the child's value with its defaults", inv.Result, err)
		}
		if inv.Agent == nil || string(inv.Agent.Value) != inv.Result {
			t.Fatalf("the nested run is not kept: %+v", inv.Agent)
		}
	})
}
