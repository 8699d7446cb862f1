package runtimetest

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/gramc-dev/gramc/runtime"
)

// FanOut is a hostile Policy (issue 44.2): every request that offers
// tools is answered with n calls at once of the first tool offered, its
// arguments guessed from the user's message as Echo guesses them — a
// model, or a prompt-injected tool result, that makes agents of agents
// multiply requests. A request that offers no tools is answered as Echo
// answers it. gramc's tests run it as fakeopenai -fanout N.
func FanOut(n int) Policy {
	return func(t *Turn, k int) Reply {
		if len(t.Tools) == 0 || n <= 0 {
			return Echo(t, k)
		}
		user := ""
		for _, m := range t.Messages {
			if m.Role == runtime.RoleUser {
				user = m.Content
			}
		}
		name := t.Tools[0]
		calls := make([]FakeCall, n)
		for i := range calls {
			calls[i] = FakeCall{Name: name, Arguments: ArgumentsFor(t.Params[name], user)}
		}
		return Reply{ToolCalls: calls}
	}
}

// FanOutModel is FanOut as a runtime.Model: every request that offers
// tools is answered with N calls of the first (arguments {"input":
// "again"}), one that offers none with "done"; each answer reports
// Usage. It counts the requests it gets, safely from any goroutine.
type FanOutModel struct {
	N        int
	Usage    runtime.Usage
	requests atomic.Int64
}

// Complete implements runtime.Model.
func (m *FanOutModel) Complete(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
	m.requests.Add(1)
	comp := &runtime.Completion{Usage: m.Usage}
	if len(req.Tools) == 0 {
		comp.Message = runtime.Message{Role: runtime.RoleAssistant, Content: "done"}
		return comp, nil
	}
	calls := make([]runtime.ToolCall, m.N)
	for i := range calls {
		calls[i] = runtime.ToolCall{ID: fmt.Sprintf("c%d", i), Name: req.Tools[0].Name, Arguments: `{"input":"again"}`}
	}
	comp.Message = runtime.Message{Role: runtime.RoleAssistant, ToolCalls: calls}
	return comp, nil
}

// Requests is how many requests the model got.
func (m *FanOutModel) Requests() int { return int(m.requests.Load()) }

// FanOutAgents is a chain of levels agents, level1 to levelN, each listing
// the next as its one tool; the last lists nothing and has no tools. With
// FanOutModel it is issue 44.2's agents of agents that multiply requests.
func FanOutAgents(levels int) runtime.Agent {
	a := runtime.Agent{Name: fmt.Sprintf("level%d", levels), Description: "a level", Model: "OpenAI/gpt-4o-mini", Instruction: "Answer."}
	for i := levels - 1; i >= 1; i-- {
		next := a
		a = runtime.Agent{Name: fmt.Sprintf("level%d", i), Description: "a level", Model: "OpenAI/gpt-4o-mini", Instruction: "Delegate.",
			Tools: []runtime.ToolSpecification{runtime.AgentToolSpec(next)}, Agents: []runtime.Agent{next}}
	}
	return a
}
