package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gramc-dev/gramc/toolspec"
)

// Agents as tools (docs/language.md §2.7): an agent lists other agents, and
// to its model each is a tool named and described as the listed agent,
// taking its input and answering its output. Calling it runs the listed
// agent with its own instruction, model, provider and tools, in a fresh
// conversation, bound from the caller's tool library; its result (the
// typed value, or the answer's text) is the tool result, and its failure
// is a tool error the caller's model reads, never the caller's failure.

// WithModels gives a run the Model for each agent it calls as a tool
// (its listed agents, and theirs): f is asked once per call with the
// listed agent's declaration and returns the client for its model, so a
// parent on one provider can call a child on another. Without it, a
// listed agent runs on the caller's Model when its model is the caller's
// agent's, and is a tool error otherwise.
func WithModels(f func(Agent) (Model, error)) Option { return func(o *RunOptions) { o.Models = f } }

// WithModelPerAgent is WithModels over one client per model: newModel is
// called once for each distinct model among agents, before anything is
// sent (so a missing key fails first), and an agent on a model not among
// them is a *ConfigurationError when it is called. gramc run's listed
// agents, gramc mcp's served agents and agenttest's cassettes get their
// clients here, each making them its own way.
func WithModelPerAgent(agents []Agent, newModel func(Agent) (Model, error)) (Option, error) {
	byModel := map[string]Model{}
	for _, a := range agents {
		if _, ok := byModel[a.Model]; ok {
			continue
		}
		m, err := newModel(a)
		if err != nil {
			return nil, err
		}
		byModel[a.Model] = m
	}
	return WithModels(func(a Agent) (Model, error) {
		m, ok := byModel[a.Model]
		if !ok {
			return nil, &ConfigurationError{Setting: "model", Message: "no client for agent " + a.Name + "'s model " + a.Model}
		}
		return m, nil
	}), nil
}

// bindListed binds the agents agent lists (Agent.Agents) from lib, each
// to the tool spec of agent.Tools that bears its name: the listed agent
// runs in place of a library tool — unless lib implements that name
// itself, which then wins. depth is agent's level (1 for the agent Bind
// was given).
func bindListed(b *BoundAgent, lib *ToolLibrary, depth int) (map[string]*BoundAgent, error) {
	agent := b.Agent
	if len(agent.Agents) == 0 {
		return nil, nil
	}
	if depth >= toolspec.MaxAgentNesting {
		return nil, &ToolBindingError{Agent: agent.Name, Tool: agent.Agents[0].Name, Difference: fmt.Sprintf(
			"agents nest more than %d levels deep here (the limit of agents listing agents); list the deeper agent's tools directly", toolspec.MaxAgentNesting)}
	}
	out := make(map[string]*BoundAgent, len(agent.Agents))
	for _, child := range agent.Agents {
		if _, dup := out[child.Name]; dup {
			return nil, &ToolBindingError{Agent: agent.Name, Tool: child.Name, Difference: "agent listed twice"}
		}
		if _, ok := findSpec(agent.Tools, child.Name); !ok {
			return nil, &ToolBindingError{Agent: agent.Name, Tool: child.Name, Difference: "a listed agent has no tool specification among the agent's tools (AgentToolSpec gives it)"}
		}
		if _, implemented := lib.Lookup(child.Name); implemented {
			// The library's own implementation of the name wins (a mock,
			// an AgentTool built by hand).
			continue
		}
		cb, err := bind(child, lib, depth+1)
		if err != nil {
			return nil, err
		}
		out[child.Name] = cb
	}
	return out, nil
}

func findSpec(specs []ToolSpecification, name string) (ToolSpecification, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return ToolSpecification{}, false
}

// AgentToolSpec is the tool a listed agent is to its caller's model when
// no compiler made it (gramc's own come from codegen/schema, which
// writes the same schemas): the agent's name and description, its input
// as the parameters (one String parameter named "input" when it has no
// signature or its Input is nil) and its output as the result.
func AgentToolSpec(a Agent) ToolSpecification {
	spec := ToolSpecification{Name: a.Name, Description: a.Description}
	sig := a.Signature
	switch {
	case sig != nil && len(bytes.TrimSpace(sig.Input)) > 0:
		spec.Schema = sig.Input
	default:
		name := "input"
		if sig != nil && sig.Message != "" {
			name = sig.Message
		}
		q, _ := json.Marshal(name)
		spec.Schema = json.RawMessage(`{"type":"object","properties":{` + string(q) + `:{"type":"string"}},"required":[` + string(q) + `],"additionalProperties":false}`)
	}
	if sig.Typed() {
		spec.OutputSchema = sig.Output
	}
	return spec
}

// agentCall is one call of a listed agent in progress: the caller's run,
// the Loop's decision on the child's run and, once the listed agent has
// run, its Response (the nested run the caller's Invocation keeps).
type agentCall struct {
	caller *runState
	child  Child
	mu     sync.Mutex
	resp   *Response
}

type agentCallKey struct{}

// startAgentCall is the context call (validated args) runs in: for a
// listed agent, it carries the caller's run and the Loop's decision on
// the child's run to the nested run, and a place for its Response; for a
// tool, ctx itself and a nil call. The decision's error (the agent may
// not run) is the call's.
func (b *BoundAgent) startAgentCall(ctx context.Context, call ToolCall, args json.RawMessage, s *runState) (context.Context, *agentCall, error) {
	if _, ok := b.agents[call.Name]; !ok || s.loop == nil {
		return ctx, nil, nil
	}
	c, err := s.loop.Child(call, args)
	if err != nil {
		return ctx, nil, err
	}
	ac := &agentCall{caller: s, child: c}
	return context.WithValue(ctx, agentCallKey{}, ac), ac, nil
}

// response is the nested run's Response (nil before it ran, and for a
// nil call).
func (ac *agentCall) response() *Response {
	if ac == nil {
		return nil
	}
	ac.mu.Lock()
	defer ac.mu.Unlock()
	return ac.resp
}

func (ac *agentCall) set(resp *Response) {
	ac.mu.Lock()
	ac.resp = resp
	ac.mu.Unlock()
}

// ServeAgent is agent b as a tool implementation outside any run — an MCP
// server serving agents (gramc mcp --agents) — exactly as a caller runs a
// listed agent: the validated arguments of its tool (AgentToolSpec)
// become its input, it runs in a fresh conversation on the Model opts'
// WithModels gives it, and its typed value (or answer text) is the
// result; a failed run is the tool's error. opts are each run's options
// (its tools' timeout, telemetry, its budget); the run is the first level
// of its nesting.
func ServeAgent(b *BoundAgent, opts ...Option) ToolFunc {
	return agentTool(b, optionsOf(opts), 1)
}

// agentTool is the implementation of listed agent child as a tool: the
// validated arguments become its input, it runs in a fresh conversation
// on its own model, and its typed value (or answer text) is the result.
// Called by a run (through BoundAgent.callTool), it runs as the caller's
// Loop decided, with the caller's options; otherwise as a run of its own
// at nesting level level, with base.
func agentTool(child *BoundAgent, base RunOptions, level int) ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		ac, _ := ctx.Value(agentCallKey{}).(*agentCall)
		var o RunOptions
		var c Child
		var model Model
		var err error
		if ac != nil {
			o, c = childOptions(ac.caller.opts), ac.child
			if ac.caller.ev != nil && ac.caller.ev.f != nil {
				o.OnEvent = nestedEvents(ac.caller.ev.emit, child.Agent.Name)
			}
			model, err = modelFor(ac.caller, child.Agent)
		} else {
			o = base
			if c, err = outsideRun(child.Agent, args, level, base); err == nil {
				model, err = modelFor(&runState{opts: base}, child.Agent)
			}
		}
		if err != nil {
			return nil, err
		}
		l, err := NewChildLoop(child.Agent, c, o)
		if err != nil {
			return nil, err
		}
		resp, err := child.drive(ctx, model, l, o)
		if ac != nil {
			ac.set(resp)
		}
		if err != nil {
			return nil, fmt.Errorf("agent %s: %w", child.Agent.Name, err)
		}
		if resp.Value != nil {
			return resp.Value, nil // JSON, not a string
		}
		return resp.Content, nil
	}
}

// childOptions are the run options of a listed agent called by a run
// with caller's: all of them, but for what the caller's Loop decides for
// the child (its iteration limit, its share of the budget: Child) and its
// events, which the caller's run passes on marked (nestedEvents). A
// child's text is not the caller's answer.
func childOptions(caller RunOptions) RunOptions {
	o := caller
	o.MaxIterations = 0
	o.OnEvent = nil
	return o
}

// RunsAgent reports whether a call of tool name runs an agent b lists
// (one its library does not implement itself): a durable engine runs it
// as a child workflow, as the Loop decides (Loop.Child).
func (b *BoundAgent) RunsAgent(name string) bool {
	_, ok := b.agents[name]
	return ok
}

// Subagents are the bound agents b runs as tools (RunsAgent), in listed
// order: a durable engine serves each as a workflow of its own.
func (b *BoundAgent) Subagents() []*BoundAgent {
	var out []*BoundAgent
	for _, a := range b.Agent.Agents {
		if c, ok := b.agents[a.Name]; ok {
			out = append(out, c)
		}
	}
	return out
}

// ToolResult is the tool result of a listed agent's run: its typed
// value's JSON, or its answer's text.
func (r *Response) ToolResult() string {
	if r.Value != nil {
		return string(r.Value)
	}
	return r.Content
}

// nestedEvents passes a listed agent's tool calls and results on to its
// caller's events, through the caller's serialiser, marked with the
// agent's name (Event.Agent); its text, usage and repairs are its own.
func nestedEvents(emit func(Event), name string) func(Event) {
	return func(e Event) {
		if e.Kind != EventToolCall && e.Kind != EventToolResult {
			return
		}
		e.Agent = append([]string{name}, e.Agent...)
		emit(e)
	}
}

// modelFor is the Model a listed agent runs on: the run's Models, or the
// caller's own Model when the child names the caller's model.
func modelFor(caller *runState, child Agent) (Model, error) {
	if caller.opts.Models != nil {
		m, err := caller.opts.Models(child)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return nil, &ConfigurationError{Setting: "model", Message: fmt.Sprintf("no model to run agent %s with (%s)", child.Name, child.Model)}
		}
		return m, nil
	}
	if caller.model != nil && child.Model == caller.agentModel {
		return caller.model, nil
	}
	return nil, &ConfigurationError{Setting: "model", Message: fmt.Sprintf(
		"no model to run agent %s with (%s): give the run its listed agents' models (WithModels)", child.Name, child.Model)}
}

// listedInput is the message listed agent a is sent for the validated
// arguments of its tool: the one String parameter's value when its input
// is a message, else the arguments object itself.
func listedInput(a Agent, args json.RawMessage) (string, error) {
	sig := a.Signature
	if sig != nil && len(bytes.TrimSpace(sig.Input)) > 0 && sig.Message == "" {
		return string(args), nil
	}
	name := "input"
	if sig != nil && sig.Message != "" {
		name = sig.Message
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return "", fmt.Errorf("agent %s: the arguments are not an object: %w", a.Name, err)
	}
	var s string
	if err := json.Unmarshal(m[name], &s); err != nil {
		return "", fmt.Errorf("agent %s takes its message as the string parameter %s", a.Name, name)
	}
	return s, nil
}

// LibraryTools are the tools a library must implement to run agent: its
// own and those of every agent it lists (and theirs), each name once, in
// listed order. A listed agent is none of them: Bind runs it.
func LibraryTools(agent Agent) []ToolSpecification {
	var out []ToolSpecification
	seen := map[string]bool{}
	walkListed(agent, func(a Agent) {
		for _, s := range a.Tools {
			if _, listed := findListed(a, s.Name); !listed && !seen[s.Name] {
				seen[s.Name] = true
				out = append(out, s)
			}
		}
	})
	return out
}

// Subagents are the agents agent lists, and theirs, depth first in
// listed order, each name once: the agents a run of agent may call.
func Subagents(agent Agent) []Agent {
	var out []Agent
	seen := map[string]bool{agent.Name: true}
	walkListed(agent, func(a Agent) {
		for _, c := range a.Agents {
			if !seen[c.Name] {
				seen[c.Name] = true
				out = append(out, c)
			}
		}
	})
	return out
}

// walkListed calls f on agent and on every agent it lists, depth first,
// at most toolspec.MaxAgentNesting levels deep.
func walkListed(agent Agent, f func(Agent)) {
	var walk func(a Agent, depth int)
	walk = func(a Agent, depth int) {
		f(a)
		if depth < toolspec.MaxAgentNesting {
			for _, c := range a.Agents {
				walk(c, depth+1)
			}
		}
	}
	walk(agent, 1)
}
