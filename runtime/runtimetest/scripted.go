// Package runtimetest helps test code that runs gram agents: a scripted
// runtime.Model, and a fake server for each provider (NewProviderServer:
// OpenAI's Chat Completions and Responses APIs, Anthropic, Gemini) that
// speaks the real wire format, is driven by one provider-neutral Policy,
// and fails the test on any request that breaks the provider's rules.
package runtimetest

import (
	"context"
	"fmt"
	"sync"

	"github.com/gramc-dev/gramc/runtime"
)

// Step is one scripted model turn: it sees the request and returns the
// completion (or an error).
type Step func(req *runtime.Request) (*runtime.Completion, error)

// Say is a step that answers with text.
func Say(text string) Step {
	return func(*runtime.Request) (*runtime.Completion, error) {
		return &runtime.Completion{Message: runtime.Message{Role: runtime.RoleAssistant, Content: text}}, nil
	}
}

// CallTools is a step that asks for tool calls. Calls without an ID get
// "call_<n>" IDs.
func CallTools(calls ...runtime.ToolCall) Step {
	return func(*runtime.Request) (*runtime.Completion, error) {
		cs := append([]runtime.ToolCall(nil), calls...)
		for i := range cs {
			if cs[i].ID == "" {
				cs[i].ID = fmt.Sprintf("call_%d", i+1)
			}
		}
		return &runtime.Completion{Message: runtime.Message{Role: runtime.RoleAssistant, ToolCalls: cs}}, nil
	}
}

// Call is shorthand for a runtime.ToolCall with JSON arguments text.
func Call(name, args string) runtime.ToolCall { return runtime.ToolCall{Name: name, Arguments: args} }

// MixedHelloCalls is a script for the hello agent (HelloSpec) whose one
// turn of calls goes every way a call can: a good call, a call of an
// unknown tool (sayHelo), arguments of the wrong type, the more calls
// given, and a call that takes the defaults; then the answer "Hello,
// Alice! And hello, world!". The runtime's Loop tests and the durable
// workflow's hold their runs to runtime.Run's with it.
func MixedHelloCalls(more ...runtime.ToolCall) []Step {
	calls := []runtime.ToolCall{Call("sayHello", `{"personName":"Alice"}`), Call("sayHelo", `{}`), Call("sayHello", `{"personName":7}`)}
	calls = append(append(calls, more...), Call("sayHello", `{}`))
	return []Step{CallTools(calls...), Say("Hello, Alice! And hello, world!")}
}

// Fail is a step that returns err.
func Fail(err error) Step {
	return func(*runtime.Request) (*runtime.Completion, error) { return nil, err }
}

// ScriptedModel is a runtime.Model that plays its steps in order and
// records every request. A request beyond the script is an error.
type ScriptedModel struct {
	mu       sync.Mutex
	steps    []Step
	requests []runtime.Request
}

// NewScriptedModel returns a model that plays steps in order.
func NewScriptedModel(steps ...Step) *ScriptedModel { return &ScriptedModel{steps: steps} }

// Complete implements runtime.Model.
func (m *ScriptedModel) Complete(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	n := len(m.requests)
	r := *req
	r.Messages = append([]runtime.Message(nil), req.Messages...)
	m.requests = append(m.requests, r)
	var step Step
	if n < len(m.steps) {
		step = m.steps[n]
	}
	m.mu.Unlock()
	if step == nil {
		return nil, fmt.Errorf("scripted model: request %d is beyond the script's %d steps", n+1, len(m.steps))
	}
	return step(&r)
}

// Requests returns copies of the requests received so far.
func (m *ScriptedModel) Requests() []runtime.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]runtime.Request(nil), m.requests...)
}
