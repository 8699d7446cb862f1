package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestBudgetFanOut (issue 44.2): a model that answers every turn with 64
// calls of a listed agent that does the same one level down makes at most
// the run's budget of requests and tool calls, siblings sharing it, and
// the run ends with the budget's error naming it; a given budget is
// obeyed the same way.
func TestBudgetFanOut(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fanOut int
		opts   []runtime.Option
		want   runtime.Budget
	}{
		{"default", 64, nil, runtime.Budget{Requests: runtime.DefaultMaxRequests, ToolCalls: runtime.DefaultMaxRunToolCalls}},
		{"given", 2, []runtime.Option{runtime.WithMaxRequests(20)}, runtime.Budget{Requests: 20, ToolCalls: runtime.DefaultMaxRunToolCalls}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &runtimetest.FanOutModel{N: tc.fanOut}
			resp, err := runtime.Run(context.Background(), m, runtimetest.FanOutAgents(3), nil, "go", nil, tc.opts...)
			var be *runtime.BudgetError
			if !errors.As(err, &be) || be.Resource != runtime.ResourceRequests || be.Limit != tc.want.Requests || be.Share {
				t.Fatalf("error %v, want the run's budget of %d model requests", err, tc.want.Requests)
			}
			want := fmt.Sprintf("the run's budget of %d model requests is spent (%d spent, listed agents included)", tc.want.Requests, tc.want.Requests)
			if err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			if got := m.Requests(); got != tc.want.Requests || resp.Total.Requests != got {
				t.Errorf("%d model requests (the run's Total says %d) for a budget of %d", got, resp.Total.Requests, tc.want.Requests)
			}
			if resp.Total.ToolCalls > tc.want.ToolCalls {
				t.Errorf("%d tool calls for a budget of %d", resp.Total.ToolCalls, tc.want.ToolCalls)
			}
		})
	}
}

// TestBudgetToolCalls: the run's budget of tool calls, listed agents'
// included, ends the run before the calls that would cross it run.
func TestBudgetToolCalls(t *testing.T) {
	ran := atomic.Int64{}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: lookupCustomer, Func: func(context.Context, json.RawMessage) (any, error) {
		ran.Add(1)
		return "ok", nil
	}})
	steps := []runtimetest.Step{}
	for range 4 {
		steps = append(steps, runtimetest.CallTools(runtimetest.Call("lookupCustomer", `{"id":"a"}`), runtimetest.Call("lookupCustomer", `{"id":"b"}`)))
	}
	m := runtimetest.NewScriptedModel(steps...)
	agent := runtime.Agent{Name: "a", Model: "OpenAI/gpt-4o-mini", Instruction: "Look up.", Tools: []runtime.ToolSpecification{lookupCustomer}}
	_, err := runtime.Run(context.Background(), m, agent, lib, "go", nil, runtime.WithMaxRunToolCalls(5))
	var be *runtime.BudgetError
	if !errors.As(err, &be) || be.Resource != runtime.ResourceToolCalls || be.Limit != 5 || be.Spent != 4 || be.Asked != 2 {
		t.Fatalf("error %v, want the budget of 5 tool calls", err)
	}
	if n := ran.Load(); n != 4 {
		t.Errorf("%d tool calls ran, want the 4 within the budget", n)
	}
}

// TestBudgetTokens (issue 46.9): the run stops after the request that
// crosses its budget of tokens (an agent's maxTokens, or WithMaxTokens
// over it), and a listed agent's tokens count toward its caller's.
func TestBudgetTokens(t *testing.T) {
	usage := runtime.Usage{PromptTokens: 30, CompletionTokens: 10, TotalTokens: 40}
	call := func() *runtimetest.FanOutModel { return &runtimetest.FanOutModel{N: 1, Usage: usage} }
	t.Run("own", func(t *testing.T) {
		m := call()
		agent := runtimetest.FanOutAgents(1)
		agent.Tools = []runtime.ToolSpecification{lookupCustomer}
		agent.MaxTokens = 100
		lib := lookupLib()
		_, err := runtime.Run(context.Background(), m, agent, lib, "go", nil)
		var be *runtime.BudgetError
		if !errors.As(err, &be) || be.Resource != runtime.ResourceTokens || be.Limit != 100 || be.Spent != 120 {
			t.Fatalf("error %v, want the budget of 100 tokens spent at 120", err)
		}
		if n := m.Requests(); n != 3 {
			t.Errorf("%d requests, want 3 (the third crosses 100 tokens)", n)
		}
		m = call()
		_, err = runtime.Run(context.Background(), m, agent, lib, "go", nil, runtime.WithMaxTokens(50))
		if !errors.As(err, &be) || be.Limit != 50 || m.Requests() != 2 {
			t.Errorf("WithMaxTokens(50): %v after %d requests", err, m.Requests())
		}
	})
	t.Run("listed", func(t *testing.T) {
		m := call()
		agent := runtimetest.FanOutAgents(2)
		agent.MaxTokens = 150
		_, err := runtime.Run(context.Background(), m, agent, nil, "go", nil, runtime.WithModels(func(runtime.Agent) (runtime.Model, error) { return m, nil }))
		var be *runtime.BudgetError
		if !errors.As(err, &be) || be.Resource != runtime.ResourceTokens || be.Share {
			t.Fatalf("error %v, want the run's budget of tokens", err)
		}
		// The parent's first request (40), the child's (40, its answer),
		// the parent's second (40) and third cross 150 only with the
		// child's counted.
		if be.Spent < 150 || be.Response.Total.Tokens() != be.Spent || be.Response.Usage.PromptTokens+be.Response.Usage.CompletionTokens >= be.Spent {
			t.Errorf("spent %d, Total %+v, own usage %+v: the child's tokens are not the caller's", be.Spent, be.Response.Total, be.Response.Usage)
		}
	})
}
