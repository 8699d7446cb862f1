package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/toolspec"
)

// coordinator is an agent on Anthropic that lists triage (on OpenAI)
// beside lookupCustomer: agents as tools, docs/language.md §2.7.
func coordinator(child runtime.Agent) runtime.Agent {
	child.Description = "Triages a support ticket"
	return runtime.Agent{Name: "coordinator", Model: "Anthropic/claude-sonnet-4-5", Instruction: "Coordinate the support desk.",
		Tools:  []runtime.ToolSpecification{lookupCustomer, runtime.AgentToolSpec(child)},
		Agents: []runtime.Agent{child}}
}

// models answers WithModels from a map of agent names to models.
func models(byAgent map[string]runtime.Model) runtime.Option {
	return runtime.WithModels(func(a runtime.Agent) (runtime.Model, error) {
		if m, ok := byAgent[a.Name]; ok {
			return m, nil
		}
		return nil, fmt.Errorf("no model for %s", a.Name)
	})
}

// triageModel is the listed triage agent's model: it looks ACME up, then
// answers that the ticket is urgent.
func triageModel() *runtimetest.ScriptedModel {
	return runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("lookupCustomer", `{"id":"acme"}`)),
		runtimetest.Say(`{"priority":"urgent","summary":"down"}`))
}

// TestListedAgentRuns: calling a listed agent runs it on its own model,
// with its own instruction and tools, in a fresh conversation; its typed
// value is the caller's tool result, and its run is kept in the caller's
// invocation as a tree.
func TestListedAgentRuns(t *testing.T) {
	child := triageAgent("OpenAI/gpt-4o-mini", "", lookupCustomer)
	parent := coordinator(child)
	pm := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("triage", `{"ticket":"The site is down for ACME"}`)),
		runtimetest.Say("Triaged: urgent."))
	cm := triageModel()
	resp, err := runtime.Run(context.Background(), pm, parent, lookupLib(), "Please handle: the site is down for ACME", nil,
		models(map[string]runtime.Model{"triage": cm}))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Triaged: urgent." {
		t.Errorf("answer %q", resp.Content)
	}
	// The child's first request: its instruction, its tools, and one
	// user message, the ticket; nothing of the caller's conversation.
	creq := cm.Requests()[0]
	if !strings.HasPrefix(creq.Instruction, "Triage the ticket.") || len(creq.Messages) != 1 ||
		creq.Messages[0].Role != runtime.RoleUser || creq.Messages[0].Content != "The site is down for ACME" {
		t.Errorf("the child's request: instruction %q, messages %+v", creq.Instruction, creq.Messages)
	}
	for _, m := range creq.Messages {
		if strings.Contains(m.Content, "Please handle") {
			t.Errorf("the child's request carries the caller's message: %+v", m)
		}
	}
	if len(creq.Tools) != 1 || creq.Tools[0].Name != "lookupCustomer" || creq.Model != "OpenAI/gpt-4o-mini" {
		t.Errorf("the child's tools %v, model %s", creq.Tools, creq.Model)
	}
	// The caller's model offered the child as a tool, and got its value.
	preq := pm.Requests()[1]
	if names := toolNames(preq.Tools); names != "lookupCustomer,triage" {
		t.Errorf("the caller's tools %s", names)
	}
	last := preq.Messages[len(preq.Messages)-1]
	if last.Role != runtime.RoleTool || last.IsError || last.Content != `{"minutes":30,"priority":"urgent","summary":"down"}` {
		t.Errorf("the caller's tool result %+v", last)
	}
	// The tree: the caller's invocation holds the child's run and its
	// own invocation.
	if len(resp.Invocations) != 1 {
		t.Fatalf("invocations %+v", resp.Invocations)
	}
	inv := resp.Invocations[0]
	if inv.Agent == nil || len(inv.Agent.Invocations) != 1 || inv.Agent.Invocations[0].Tool != "lookupCustomer" ||
		inv.Agent.Invocations[0].Result != `{"plan":"gold"}` || string(inv.Agent.Value) != inv.Result {
		t.Errorf("the nested run: %+v", inv.Agent)
	}
	data, err := json.Marshal(resp.Invocations)
	if err != nil || !strings.Contains(string(data), `"agent":{`) {
		t.Errorf("the tree as JSON: %s, %v", data, err)
	}
}

func toolNames(specs []runtime.ToolSpecification) string {
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	return strings.Join(names, ",")
}

// TestListedAgentFails: a child that fails (an output error, its
// iteration limit, a provider error, no model) is a tool error the
// caller's model reads, and the caller goes on.
func TestListedAgentFails(t *testing.T) {
	for _, tc := range []struct {
		name  string
		child []runtimetest.Step
		want  string
	}{
		{"output error", []runtimetest.Step{runtimetest.Say(`not json`), runtimetest.Say(`still not`)}, "the answer is not a Triage after 1 repair turn"},
		{"iteration limit", []runtimetest.Step{
			runtimetest.CallTools(runtimetest.Call("lookupCustomer", `{"id":"a"}`)),
			runtimetest.CallTools(runtimetest.Call("lookupCustomer", `{"id":"b"}`))}, "iteration limit"},
		{"provider error", []runtimetest.Step{runtimetest.Fail(&runtime.APIError{StatusCode: 500, Message: "overloaded"})}, "overloaded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			child := triageAgent("OpenAI/gpt-4o-mini", "", lookupCustomer)
			child.MaxIterations = 2
			pm := runtimetest.NewScriptedModel(
				runtimetest.CallTools(runtimetest.Call("triage", `{"ticket":"The site is down"}`)),
				runtimetest.Say("The triage failed; escalating by hand."))
			cm := runtimetest.NewScriptedModel(tc.child...)
			resp, err := runtime.Run(context.Background(), pm, coordinator(child), lookupLib(), "Handle the ticket", nil,
				models(map[string]runtime.Model{"triage": cm}))
			if err != nil {
				t.Fatalf("the caller failed: %v", err)
			}
			if resp.Content != "The triage failed; escalating by hand." {
				t.Errorf("answer %q", resp.Content)
			}
			inv := resp.Invocations[0]
			var tce *runtime.ToolCallError
			if !errors.As(inv.Err, &tce) || tce.Kind != runtime.ToolFailed || !strings.Contains(inv.Err.Error(), tc.want) {
				t.Errorf("the invocation's error %v, want a failed tool saying %q", inv.Err, tc.want)
			}
			if inv.Agent == nil {
				t.Errorf("the failed run is not kept")
			}
			msgs := pm.Requests()[1].Messages
			if last := msgs[len(msgs)-1]; !last.IsError || !strings.Contains(last.Content, "agent triage") {
				t.Errorf("the caller's model read %+v", last)
			}
		})
	}
	t.Run("no model", func(t *testing.T) {
		pm := runtimetest.NewScriptedModel(
			runtimetest.CallTools(runtimetest.Call("triage", `{"ticket":"The site is down"}`)),
			runtimetest.Say("ok"))
		resp, err := runtime.Run(context.Background(), pm, coordinator(triageAgent("OpenAI/gpt-4o-mini", "")), lookupLib(), "Handle it", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := resp.Invocations[0].Err; err == nil || !strings.Contains(err.Error(), "WithModels") {
			t.Errorf("a child on another model without WithModels: %v", err)
		}
	})
}

// TestListedAgentSameModel: without WithModels a child on the caller's
// own model runs on the caller's Model; an untyped child takes its
// message as "input" and answers text.
func TestListedAgentSameModel(t *testing.T) {
	child := runtime.Agent{Name: "echoer", Description: "Says it back", Model: "OpenAI/gpt-4o-mini", Instruction: "Repeat."}
	parent := runtime.Agent{Name: "p", Model: "OpenAI/gpt-4o-mini", Instruction: "Use echoer.",
		Tools: []runtime.ToolSpecification{runtime.AgentToolSpec(child)}, Agents: []runtime.Agent{child}}
	m := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("echoer", `{"input":"ping"}`)),
		runtimetest.Say("pong"),
		runtimetest.Say("done"))
	resp, err := runtime.Run(context.Background(), m, parent, nil, "go", nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := m.Requests()
	if reqs[1].Instruction != "Repeat." || len(reqs[1].Messages) != 1 || reqs[1].Messages[0].Content != "ping" {
		t.Errorf("the child's request %+v", reqs[1])
	}
	if resp.Invocations[0].Result != "pong" || resp.Content != "done" {
		t.Errorf("result %q, answer %q", resp.Invocations[0].Result, resp.Content)
	}
}

// TestListedAgentNesting: MaxAgentNesting levels bind; one more is a
// binding error naming the limit.
func TestListedAgentNesting(t *testing.T) {
	if _, err := runtime.Bind(runtimetest.FanOutAgents(toolspec.MaxAgentNesting), nil); err != nil {
		t.Fatalf("%d levels: %v", toolspec.MaxAgentNesting, err)
	}
	_, err := runtime.Bind(runtimetest.FanOutAgents(toolspec.MaxAgentNesting+1), nil)
	var be *runtime.ToolBindingError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d levels", toolspec.MaxAgentNesting)) {
		t.Errorf("%d levels: %v", toolspec.MaxAgentNesting+1, err)
	}
}

// TestListedAgentBudget: a child makes at most the model requests its
// caller has left, however many its own maxIterations allows.
func TestListedAgentBudget(t *testing.T) {
	child := triageAgent("OpenAI/gpt-4o-mini", "", lookupCustomer)
	child.MaxIterations = 10
	parent := coordinator(child)
	parent.MaxIterations = 3
	pm := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("lookupCustomer", `{"id":"a"}`)),
		runtimetest.CallTools(runtimetest.Call("triage", `{"ticket":"The site is down"}`)),
		runtimetest.Say("gave up"))
	var steps []runtimetest.Step
	for range 10 {
		steps = append(steps, runtimetest.CallTools(runtimetest.Call("lookupCustomer", `{"id":"x"}`)))
	}
	cm := runtimetest.NewScriptedModel(steps...)
	resp, err := runtime.Run(context.Background(), pm, parent, lookupLib(), "Handle it", nil, models(map[string]runtime.Model{"triage": cm}))
	if err != nil {
		t.Fatal(err)
	}
	var ie *runtime.IterationLimitError
	if inv := resp.Invocations[1]; !errors.As(inv.Err, &ie) || ie.Limit != 1 {
		t.Errorf("the child's error %v, want its iteration limit at the 1 request the caller had left", inv.Err)
	}
	if n := len(cm.Requests()); n != 1 {
		t.Errorf("the child made %d requests", n)
	}
}

// TestListedAgentCancel: cancelling the caller cancels the child's
// request; the caller's run ends with the context's error.
func TestListedAgentCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	child := triageAgent("OpenAI/gpt-4o-mini", "")
	pm := runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("triage", `{"ticket":"The site is down"}`)))
	seen := make(chan error, 1)
	cm := runtime.ModelFunc(func(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
		cancel()
		<-ctx.Done()
		seen <- ctx.Err()
		return nil, ctx.Err()
	})
	_, err := runtime.Run(ctx, pm, coordinator(child), lookupLib(), "Handle it", nil, models(map[string]runtime.Model{"triage": cm}))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the caller's error %v, want context.Canceled", err)
	}
	// Invoke stops waiting for a call once the context ends (a tool may
	// ignore it), so the child may still be on its way out: wait for it,
	// bounded.
	select {
	case got := <-seen:
		if !errors.Is(got, context.Canceled) {
			t.Errorf("the child's request saw %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("the child made no request")
	}
}

// BenchmarkListedAgent measures what a listed agent adds to a call: a
// run whose model calls one tool, and one whose model calls a typed
// listed agent instead (its own bind-time state, a fresh conversation,
// its request, its answer decoded and validated), on scripted models.
func BenchmarkListedAgent(b *testing.B) {
	child := triageAgent("OpenAI/gpt-4o-mini", "")
	parent := coordinator(child)
	lib := lookupLib()
	bound, err := runtime.Bind(parent, lib)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, tool, args string }{
		{"tool", "lookupCustomer", `{"id":"acme"}`},
		{"listed-agent", "triage", `{"ticket":"The site is down"}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				pm := runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call(tc.tool, tc.args)), runtimetest.Say("done"))
				cm := runtimetest.NewScriptedModel(runtimetest.Say(`{"priority":"urgent","summary":"down"}`))
				resp, err := bound.Run(context.Background(), pm, "Handle it", nil, models(map[string]runtime.Model{"triage": cm}))
				if err != nil || resp.Invocations[0].Err != nil {
					b.Fatal(err, resp.Invocations[0].Err)
				}
			}
		})
	}
}

// TestListedAgentEvents: a listed agent's tool calls and results are its
// caller's events too, marked with the agent's name; its text is not.
func TestListedAgentEvents(t *testing.T) {
	child := triageAgent("OpenAI/gpt-4o-mini", "", lookupCustomer)
	pm := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("triage", `{"ticket":"The site is down"}`)),
		runtimetest.Say("done"))
	cm := triageModel()
	var got []string
	_, err := runtime.Run(context.Background(), pm, coordinator(child), lookupLib(), "Handle it", nil,
		models(map[string]runtime.Model{"triage": cm}),
		runtime.WithEvents(func(e runtime.Event) {
			switch e.Kind {
			case runtime.EventToolCall:
				got = append(got, fmt.Sprintf("%v call %s", e.Agent, e.Call.Name))
			case runtime.EventToolResult:
				got = append(got, fmt.Sprintf("%v result %s", e.Agent, e.Invocation.Tool))
			case runtime.EventText:
				got = append(got, fmt.Sprintf("%v text %s", e.Agent, e.Text))
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"[] call triage", "[triage] call lookupCustomer", "[triage] result lookupCustomer", "[] result triage", "[] text done"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWithModelPerAgent: one client is made per distinct model, up front,
// each agent gets its model's, an agent on another model is a
// *ConfigurationError naming it, and a client that cannot be made fails
// the option before anything runs.
func TestWithModelPerAgent(t *testing.T) {
	agents := []runtime.Agent{{Name: "a", Model: "OpenAI/gpt-4o"}, {Name: "b", Model: "Anthropic/claude-sonnet-4-5"}, {Name: "c", Model: "OpenAI/gpt-4o"}}
	var made []string
	opt, err := runtime.WithModelPerAgent(agents, func(a runtime.Agent) (runtime.Model, error) {
		made = append(made, a.Name)
		return runtimetest.NewScriptedModel(runtimetest.Say(a.Model)), nil
	})
	if err != nil || strings.Join(made, ",") != "a,b" {
		t.Fatalf("made clients for %q, err %v; want a and b only", made, err)
	}
	var o runtime.RunOptions
	opt(&o)
	ma, _ := o.Models(agents[0])
	mb, _ := o.Models(agents[1])
	mc, _ := o.Models(agents[2])
	if ma == nil || ma != mc || ma == mb {
		t.Errorf("a and c share gpt-4o's client, b has its own: %p %p %p", ma, mb, mc)
	}
	var ce *runtime.ConfigurationError
	if _, err := o.Models(runtime.Agent{Name: "d", Model: "Gemini/gemini-2.5-flash"}); !errors.As(err, &ce) || !strings.Contains(err.Error(), "agent d's model Gemini/gemini-2.5-flash") {
		t.Errorf("an agent on another model: %v", err)
	}

	boom := errors.New("no key")
	if _, err := runtime.WithModelPerAgent(agents, func(runtime.Agent) (runtime.Model, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("a client that cannot be made: %v", err)
	}
}
