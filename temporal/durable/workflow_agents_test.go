package durable_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.temporal.io/sdk/temporal"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/temporal/durable"
)

// greeterAgent is helloAgent listed by frontDesk (issue 34.6). Parallel
// to e2e_agents_test.go's researcher and desk (the listing the worker
// process serves).
var (
	greeterAgent = renamed(helloAgent, "greeter", "Greets people")
	frontDesk    = delegator("front_desk", "Anthropic/claude-sonnet-4-5", "Have the greeter greet.", greeterAgent)
)

// renamed is a under another name, with a description: an agent as
// another lists it.
func renamed(a runtime.Agent, name, description string) runtime.Agent {
	a.Name, a.Description = name, description
	return a
}

// delegator is an agent that lists child (issue 34.6): child is its one
// tool, run as a child workflow.
func delegator(name, model, instruction string, child runtime.Agent) runtime.Agent {
	return runtime.Agent{Name: name, Model: model, Instruction: instruction,
		Tools: []runtime.ToolSpecification{runtime.AgentToolSpec(child)}, Agents: []runtime.Agent{child}}
}

// byAgent gives each agent its scripted model.
func byAgent(parent, child runtime.Model) func(runtime.Agent) (runtime.Model, error) {
	return func(a runtime.Agent) (runtime.Model, error) {
		if a.Name == greeterAgent.Name {
			return child, nil
		}
		return parent, nil
	}
}

// TestWorkflowListedAgent: a listed agent runs as a child workflow, and
// the caller's Response — the child's value as the tool result, the
// nested run in Invocation.Agent — is runtime.Run's; a failing child
// (its iteration limit, bounded by what its caller has left) is a tool
// error and the caller goes on.
func TestWorkflowListedAgent(t *testing.T) {
	for _, tc := range []struct {
		name          string
		maxIterations int
		child         []runtimetest.Step
		wantErr       string
	}{
		{"runs", 0, []runtimetest.Step{runtimetest.CallTools(runtimetest.Call("sayHello", `{"personName":"Alice"}`)), runtimetest.Say("Hello, Alice!")}, ""},
		{"fails", 2, []runtimetest.Step{runtimetest.CallTools(runtimetest.Call("sayHello", `{}`)), runtimetest.CallTools(runtimetest.Call("sayHello", `{}`))}, "iteration limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parentSteps := func() []runtimetest.Step {
				return []runtimetest.Step{runtimetest.CallTools(runtimetest.Call("greeter", `{"input":"greet Alice"}`)), runtimetest.Say("done")}
			}
			var runs atomic.Int32
			lib := runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: greeter(&runs)})
			want, err := runtime.Run(context.Background(), runtimetest.NewScriptedModel(parentSteps()...), frontDesk, lib, "hi", nil,
				runtime.WithMaxIterations(tc.maxIterations),
				runtime.WithModels(func(runtime.Agent) (runtime.Model, error) { return runtimetest.NewScriptedModel(tc.child...), nil }))
			if err != nil {
				t.Fatal(err)
			}
			b, err := runtime.Bind(frontDesk, lib)
			if err != nil {
				t.Fatal(err)
			}
			child := runtimetest.NewScriptedModel(tc.child...)
			e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{b}, Model: byAgent(runtimetest.NewScriptedModel(parentSteps()...), child)})
			e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: frontDesk.Name, Input: "hi", MaxIterations: tc.maxIterations})
			got := e.response(t)
			if got.Content != "done" || len(got.Invocations) != 1 {
				t.Fatalf("answer %q, invocations %+v", got.Content, got.Invocations)
			}
			inv := got.Invocations[0]
			if tc.wantErr != "" {
				var tce *runtime.ToolCallError
				if !errors.As(inv.Err, &tce) || !strings.Contains(tce.Message, tc.wantErr) || !strings.Contains(tce.Message, "agent greeter") {
					t.Fatalf("the child's failure: %v, want a tool error saying %q", inv.Err, tc.wantErr)
				}
				if inv.Agent == nil || inv.Agent.Iterations != 1 {
					t.Errorf("the partial nested run: %+v, want its 1 request (all its caller had left)", inv.Agent)
				}
				if n := len(child.Requests()); n != 1 {
					t.Errorf("the child made %d requests, want 1", n)
				}
				return
			}
			if d := cmp.Diff(*want, got, runtimetest.ResponseOptions); d != "" {
				t.Errorf("workflow's Response differs from Run's (-Run +workflow):\n%s", d)
			}
			creq := child.Requests()[0]
			if creq.Instruction != greeterAgent.Instruction || len(creq.Messages) != 1 || creq.Messages[0].Content != "greet Alice" {
				t.Errorf("the child's first request: %q %+v", creq.Instruction, creq.Messages)
			}
		})
	}
}

// TestWorkflowBudget (issue 44.2): the run-wide budget holds durably —
// listed agents' child workflows draw from their caller's, siblings
// sharing it — and the workflow ends as runtime.Run does: the budget's
// error after the same number of model requests.
func TestWorkflowBudget(t *testing.T) {
	agent := runtimetest.FanOutAgents(3)
	local := &runtimetest.FanOutModel{N: 2}
	_, runErr := runtime.Run(context.Background(), local, agent, nil, "go", nil, runtime.WithMaxRequests(20))
	var be *runtime.BudgetError
	if !errors.As(runErr, &be) {
		t.Fatalf("runtime.Run: %v, want its budget's error", runErr)
	}
	b, err := runtime.Bind(agent, nil)
	if err != nil {
		t.Fatal(err)
	}
	durableModel := &runtimetest.FanOutModel{N: 2}
	e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{b}, Model: modelFor(durableModel)})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: agent.Name, Input: "go", MaxRequests: 20})
	var app *temporal.ApplicationError
	if err := e.GetWorkflowError(); !errors.As(err, &app) || app.Type() != string(durable.ErrBudget) || app.Message() != runErr.Error() {
		t.Fatalf("the workflow's error %v, want %s: %q", err, durable.ErrBudget, runErr)
	}
	var partial runtime.Response
	if err := app.Details(&partial); err != nil {
		t.Fatal(err)
	}
	if got := durableModel.Requests(); got != local.Requests() || partial.Total.Requests != got || got > 20 {
		t.Errorf("the durable run made %d model requests (its Total says %d), runtime.Run %d, for a budget of 20", got, partial.Total.Requests, local.Requests())
	}
}
