package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gramc-dev/gramc/internal/suggest"
)

// DefaultConcurrency bounds how many tool calls of one model response run
// at the same time.
const DefaultConcurrency = 4

// DefaultMaxToolCalls bounds the tool calls run for one model response: a
// model that asks for thousands at once gets the excess answered with an
// error it can act on.
const DefaultMaxToolCalls = 64

// RunOptions tune Run. The zero value is the default behaviour.
type RunOptions struct {
	// ToolTimeout bounds each tool call (0: no limit beyond ctx).
	ToolTimeout time.Duration
	// Concurrency bounds the tool calls of one response that run at once
	// (0: DefaultConcurrency).
	Concurrency int
	// MaxIterations overrides the agent's maxIterations when positive.
	MaxIterations int
	// MaxToolCalls bounds the tool calls run for one model response (0:
	// DefaultMaxToolCalls); the calls beyond it are answered with an error
	// the model can read, not run.
	MaxToolCalls int
	// OnEvent receives the run's events (WithEvents).
	OnEvent func(Event)
}

// Option sets a RunOptions field.
type Option func(*RunOptions)

// WithToolTimeout bounds each tool call.
func WithToolTimeout(d time.Duration) Option { return func(o *RunOptions) { o.ToolTimeout = d } }

// WithConcurrency bounds the tool calls of one response run at once.
func WithConcurrency(n int) Option { return func(o *RunOptions) { o.Concurrency = n } }

// WithMaxToolCalls bounds the tool calls run for one model response.
func WithMaxToolCalls(n int) Option { return func(o *RunOptions) { o.MaxToolCalls = n } }

// WithMaxIterations overrides the agent's iteration limit.
func WithMaxIterations(n int) Option { return func(o *RunOptions) { o.MaxIterations = n } }

// Run sends input to the agent as the next user message of conv (nil for a
// new conversation) and runs the tool-calling loop: tool calls are
// validated against the tools' schemas, given their defaults and executed
// with the implementations in lib, and their results (or precise error
// messages) are sent back, until the model answers in text.
//
// conv is not modified; the returned Response.Conversation holds the whole
// history. On error the Response, when not nil, holds the partial exchange:
// *ValidationError (empty input), *ConfigurationError (nil model),
// *ToolBindingError, *APIError (from the model), *IterationLimitError, or
// the context's error.
func Run(ctx context.Context, model Model, agent Agent, lib *ToolLibrary, input string, conv *Conversation, opts ...Option) (*Response, error) {
	if strings.TrimSpace(input) == "" {
		return nil, &ValidationError{Field: "input", Message: "the message is empty"}
	}
	b, err := Bind(agent, lib)
	if err != nil {
		return nil, err
	}
	return b.Run(ctx, model, input, conv, opts...)
}

// Run is like the package's Run for an agent bound once.
func (b *BoundAgent) Run(ctx context.Context, model Model, input string, conv *Conversation, opts ...Option) (*Response, error) {
	if strings.TrimSpace(input) == "" {
		return nil, &ValidationError{Field: "input", Message: "the message is empty"}
	}
	if model == nil {
		return nil, &ConfigurationError{Setting: "model", Message: "no model to run the agent with"}
	}
	var o RunOptions
	for _, opt := range opts {
		opt(&o)
	}
	limit := o.MaxIterations
	if limit <= 0 {
		limit = b.Agent.MaxIterations
	}
	if limit <= 0 {
		limit = DefaultMaxIterations
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.MaxToolCalls <= 0 {
		o.MaxToolCalls = DefaultMaxToolCalls
	}

	c := conv.Clone()
	if c == nil {
		c = &Conversation{}
	}
	c.Append(Message{Role: RoleUser, Content: input})
	resp := &Response{Conversation: c}
	req := &Request{
		Model:       b.Agent.Model,
		Instruction: b.Agent.Instruction,
		Tools:       b.Agent.Tools,
		Temperature: b.Agent.Temperature,
		ToolChoice:  b.Agent.ToolChoice,
	}
	ev := &events{f: o.OnEvent}
	for resp.Iterations < limit {
		if err := ctx.Err(); err != nil {
			return resp, err
		}
		req.Messages = c.Messages
		comp, err := ev.complete(ctx, model, req, resp.Iterations+1)
		resp.Iterations++
		if err != nil {
			if ctx.Err() != nil {
				return resp, fmt.Errorf("%w (%v)", ctx.Err(), err)
			}
			return resp, err
		}
		if comp == nil {
			return resp, &APIError{Message: "the model returned no completion and no error"}
		}
		msg := comp.Message
		msg.Role = RoleAssistant
		resp.Usage.Add(comp.Usage)
		resp.StopReason = comp.StopReason
		ev.emit(Event{Kind: EventUsage, Iteration: resp.Iterations, Usage: comp.Usage})
		ensureCallIDs(c.Messages, msg.ToolCalls, resp.Iterations)
		c.Append(msg)
		if len(msg.ToolCalls) == 0 {
			resp.Content = msg.Content
			ev.emit(Event{Kind: EventDone, Iteration: resp.Iterations, Response: resp})
			return resp, nil
		}
		invs := b.callTools(ctx, msg.ToolCalls, &o, ev, resp.Iterations)
		for _, inv := range invs {
			content := inv.Result
			if inv.Err != nil {
				content = "error: " + inv.Err.Error()
			}
			c.Append(Message{Role: RoleTool, ToolCallID: inv.CallID, Name: inv.Tool, Content: content, IsError: inv.Err != nil})
		}
		resp.Invocations = append(resp.Invocations, invs...)
		if err := ctx.Err(); err != nil {
			return resp, err
		}
	}
	return resp, &IterationLimitError{Limit: limit, Response: resp}
}

// ensureCallIDs gives calls without an ID (legacy function calls, some
// servers) an ID, and replaces any ID already used in the conversation or
// earlier in this turn, so every ID is unique in the conversation and every
// result answers exactly one call. Generated IDs ("call_<iteration>_<n>")
// are checked against the server's too: a server's "call_1_1" cannot
// collide with one gramc makes.
func ensureCallIDs(history []Message, calls []ToolCall, iter int) {
	used := map[string]bool{}
	for _, m := range history {
		for _, tc := range m.ToolCalls {
			used[tc.ID] = true
		}
		if m.ToolCallID != "" {
			used[m.ToolCallID] = true
		}
	}
	// Keep every server ID that is unique, then give the rest fresh ones.
	count := map[string]int{}
	for _, tc := range calls {
		count[tc.ID]++
	}
	fresh := make([]bool, len(calls))
	for i, tc := range calls {
		if tc.ID == "" || used[tc.ID] || count[tc.ID] > 1 {
			fresh[i] = true
			continue
		}
		used[tc.ID] = true
	}
	n := 0
	for i := range calls {
		if !fresh[i] {
			continue
		}
		for {
			id := fmt.Sprintf("call_%d_%d", iter, n)
			n++
			if !used[id] {
				calls[i].ID, calls[i].Generated = id, true
				used[id] = true
				break
			}
		}
	}
}

// callTools runs calls, at most o.Concurrency at once, and returns their
// invocations in call order.
func (b *BoundAgent) callTools(ctx context.Context, calls []ToolCall, o *RunOptions, ev *events, iter int) []Invocation {
	invs := make([]Invocation, len(calls))
	if len(calls) > o.MaxToolCalls {
		for i := o.MaxToolCalls; i < len(calls); i++ {
			call := calls[i]
			invs[i] = Invocation{CallID: call.ID, Tool: call.Name, Args: rawArgs(call.Arguments),
				Err: &ToolCallError{Tool: call.Name, Kind: TooManyCalls, Message: fmt.Sprintf(
					"tool %s was not run: the response asked for %d tool calls and at most %d run per response; call it again in a later response", call.Name, len(calls), o.MaxToolCalls)}}
		}
		run := b.callTools(ctx, calls[:o.MaxToolCalls], o, ev, iter)
		copy(invs, run)
		for i := o.MaxToolCalls; i < len(calls); i++ {
			ev.emit(Event{Kind: EventToolResult, Iteration: iter, Index: i, Invocation: invs[i]})
		}
		return invs
	}
	if len(calls) == 1 {
		invs[0] = b.callTool(ctx, calls[0], o, ev, iter, 0)
		return invs
	}
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for i, call := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				invs[i] = Invocation{CallID: call.ID, Tool: call.Name, Args: rawArgs(call.Arguments),
					Err: &ToolCallError{Tool: call.Name, Kind: ToolFailed, Message: fmt.Sprintf("tool %s was not run: %v", call.Name, ctx.Err()), Err: ctx.Err()}}
				ev.emit(Event{Kind: EventToolResult, Iteration: iter, Index: i, Invocation: invs[i]})
				return
			}
			defer func() { <-sem }()
			invs[i] = b.callTool(ctx, call, o, ev, iter, i)
		}()
	}
	wg.Wait()
	return invs
}

func rawArgs(text string) json.RawMessage {
	data, _ := json.Marshal(text)
	return data
}

type toolOutcome struct {
	val any
	err error
}

// callTool validates a call's arguments and runs the tool. Every failure
// becomes a *ToolCallError in the invocation.
// Call runs one tool call exactly as Run runs a model's: the arguments are
// validated against the tool's schema and given their defaults, the tool
// runs under the tool timeout, and an unknown tool, invalid arguments, an
// error, a panic or a timeout is the Invocation's *ToolCallError, with the
// message Run would send the model. Servers that expose an agent's tools
// to other callers (runtime/mcp) call it.
func (b *BoundAgent) Call(ctx context.Context, call ToolCall, opts ...Option) Invocation {
	var o RunOptions
	for _, opt := range opts {
		opt(&o)
	}
	return b.callTool(ctx, call, &o, &events{f: o.OnEvent}, 0, 0)
}

func (b *BoundAgent) callTool(ctx context.Context, call ToolCall, o *RunOptions, ev *events, iter, index int) (inv Invocation) {
	start := time.Now()
	inv = Invocation{CallID: call.ID, Tool: call.Name}
	ev.emit(Event{Kind: EventToolCall, Iteration: iter, Index: index, Call: call})
	defer func() {
		inv.Duration = time.Since(start)
		ev.emit(Event{Kind: EventToolResult, Iteration: iter, Index: index, Invocation: inv})
	}()
	bt, ok := b.tools[call.Name]
	if !ok {
		inv.Args = rawArgs(call.Arguments)
		msg := fmt.Sprintf("unknown tool %q", call.Name) + suggest.DidYouMean(suggest.Closest(call.Name, b.names))
		if len(b.names) > 0 {
			msg += " (the available tools are " + strings.Join(b.names, ", ") + ")"
		} else {
			msg += "; this agent has no tools"
		}
		inv.Err = &ToolCallError{Tool: call.Name, Kind: UnknownTool, Message: msg}
		return inv
	}
	args, err := bt.args.prepareArgs(call.Arguments)
	if err != nil {
		inv.Args = rawArgs(call.Arguments)
		inv.Err = &ToolCallError{Tool: call.Name, Kind: InvalidArguments,
			Message: fmt.Sprintf("invalid arguments for tool %s: %v", call.Name, err)}
		return inv
	}
	inv.Args = args

	tctx, cancel := ctx, context.CancelFunc(func() {})
	if o.ToolTimeout > 0 {
		tctx, cancel = context.WithTimeout(ctx, o.ToolTimeout)
	}
	defer cancel()
	done := make(chan toolOutcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- toolOutcome{err: &ToolCallError{Tool: call.Name, Kind: ToolPanicked,
					Message: fmt.Sprintf("tool %s failed: panic: %v", call.Name, r),
					Err:     fmt.Errorf("panic: %v\n%s", r, debug.Stack())}}
			}
		}()
		v, err := bt.tool.Func(tctx, args)
		done <- toolOutcome{val: v, err: err}
	}()
	var out toolOutcome
	select {
	case out = <-done:
	case <-tctx.Done():
		// The tool may ignore its context; stop waiting for it.
		out = toolOutcome{err: tctx.Err()}
	}
	if out.err != nil {
		inv.Err = b.toolError(ctx, tctx, call.Name, o.ToolTimeout, out.err)
		return inv
	}
	res, err := encodeResult(out.val)
	if err != nil {
		inv.Err = &ToolCallError{Tool: call.Name, Kind: BadResult, Message: fmt.Sprintf("tool %s returned a result that cannot be encoded as JSON: %v", call.Name, err), Err: err}
		return inv
	}
	inv.Result = res
	return inv
}

func (b *BoundAgent) toolError(ctx, tctx context.Context, name string, timeout time.Duration, err error) error {
	if tce, ok := err.(*ToolCallError); ok {
		return tce
	}
	if ctx.Err() == nil && tctx.Err() == context.DeadlineExceeded {
		return &ToolCallError{Tool: name, Kind: ToolTimedOut, Message: fmt.Sprintf("tool %s timed out after %v", name, timeout), Err: err}
	}
	return &ToolCallError{Tool: name, Kind: ToolFailed, Message: fmt.Sprintf("tool %s failed: %v", name, err), Err: err}
}

// encodeResult turns a tool's result into the text sent to the model: a
// string as is, json.RawMessage or []byte as is, anything else as JSON.
func encodeResult(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "null", nil
	case string:
		return x, nil
	case json.RawMessage:
		return string(x), nil
	case []byte:
		return string(x), nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(data), nil
}
