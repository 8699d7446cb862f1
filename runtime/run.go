package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/gramc-dev/gramc/internal/suggest"
)

// The defaults of a run: what a zero RunOptions field or an agent's unset
// maxIterations means.
const (
	// DefaultConcurrency bounds how many tool calls of one model response
	// run at the same time.
	DefaultConcurrency = 4
	// DefaultMaxToolCalls bounds the tool calls run for one model
	// response: a model that asks for thousands at once gets the excess
	// answered with an error it can act on.
	DefaultMaxToolCalls = 64
	// DefaultMaxIterations is the loop bound when an agent does not set
	// one.
	DefaultMaxIterations = 10
	// DefaultMaxRequests is a run's budget of model requests when none is
	// given (WithMaxRequests): at most this many requests for the agent
	// and every agent it calls, at any depth. A run of the default
	// settings that calls no agents makes at most DefaultMaxIterations.
	DefaultMaxRequests = 200
	// DefaultMaxRunToolCalls is a run's budget of tool calls, its listed
	// agents' included, when none is given (WithMaxRunToolCalls).
	DefaultMaxRunToolCalls = 1000
)

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
	// TracerProvider and MeterProvider record the run's spans and
	// metrics (WithTracerProvider, WithMeterProvider; telemetry.go);
	// CaptureContent adds its content to the spans; ProviderName names
	// the provider for them.
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	CaptureContent bool
	// RedactContent, when set, rewrites each captured content attribute
	// before it is recorded (WithContentRedactor).
	RedactContent func(string) string
	ProviderName  string

	// Models gives the Model of each agent the run calls as a tool
	// (WithModels, agenttool.go).
	Models func(Agent) (Model, error)

	// MaxRequests, MaxRunToolCalls and MaxTokens are the run's budget
	// (budget.go): what the agent and every agent it calls, at any depth,
	// may spend together (0: DefaultMaxRequests, DefaultMaxRunToolCalls,
	// and the agent's maxTokens or no limit).
	MaxRequests     int
	MaxRunToolCalls int
	MaxTokens       int
}

// RunOptions holds what a caller chooses and nothing of a run's state:
// that is a runState, made for each run (go/types' Config beside its
// Checker). A listed agent's run gets its caller's options whole
// (childOptions).

// runState is one run's state beside its options.
type runState struct {
	opts      RunOptions
	loop      *Loop      // nil outside a run (BoundAgent.Call)
	telemetry *telemetry // the run's recorder (nil: none)
	// model is the run's Model and agentModel its agent's model: a listed
	// agent on the same model runs on it when no Models is given.
	model      Model
	agentModel string
	ev         *events
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

// Run is like the package's Run for an agent bound once. It drives a Loop
// (the run's decisions) with model and runs each turn's tool calls, at
// most Concurrency at once.
func (b *BoundAgent) Run(ctx context.Context, model Model, input string, conv *Conversation, opts ...Option) (*Response, error) {
	o := optionsOf(opts)
	l, err := NewLoop(b.Agent, input, conv, o)
	if err != nil {
		return nil, err
	}
	return b.drive(ctx, model, l, o)
}

// optionsOf applies opts to the zero RunOptions.
func optionsOf(opts []Option) RunOptions {
	var o RunOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// drive runs l to its end with model, under o: Run's and a listed agent's
// run alike.
func (b *BoundAgent) drive(ctx context.Context, model Model, l *Loop, o RunOptions) (*Response, error) {
	if model == nil {
		return nil, &ConfigurationError{Setting: "model", Message: "no model to run the agent with"}
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	s := &runState{opts: o, loop: l, model: model, agentModel: b.Agent.Model, telemetry: newTelemetry(&o, b.Agent)}
	if s.telemetry == nil {
		// Nothing recorded, nothing allocated for it.
		s.ev = &events{f: o.OnEvent}
		return b.loop(ctx, s, nil)
	}
	resp := l.Response()
	ctx, endAgent := s.telemetry.agent(ctx, b.Agent)
	var runErr error
	defer func() { endAgent(resp, runErr) }()
	// The first streamed piece of each answer is marked on its chat span.
	var first func()
	onEvent := o.OnEvent
	if onEvent != nil {
		onEvent = func(e Event) {
			if (e.Kind == EventText || e.Kind == EventToolCallStart) && first != nil {
				first()
			}
			o.OnEvent(e)
		}
	}
	s.ev = &events{f: onEvent}
	resp, runErr = b.loop(ctx, s, &first)
	return resp, runErr
}

// loop is Run's cycle over the Loop's decisions.
func (b *BoundAgent) loop(ctx context.Context, s *runState, first *func()) (*Response, error) {
	l, ev, tel := s.loop, s.ev, s.telemetry
	resp := l.Response()
	for {
		if err := ctx.Err(); err != nil {
			return resp, err
		}
		req, err := l.Next()
		if err != nil {
			return resp, err
		}
		cctx, done, mark := tel.chat(ctx, req, ev.on())
		if first != nil {
			*first = mark
		}
		comp, err := ev.complete(cctx, s.model, req, resp.Iterations+1)
		done(comp, err)
		if err != nil {
			l.Failed()
			if ctx.Err() != nil {
				return resp, fmt.Errorf("%w (%v)", ctx.Err(), err)
			}
			return resp, err
		}
		turn, err := l.Receive(comp)
		if err != nil {
			return resp, err
		}
		ev.emit(Event{Kind: EventUsage, Iteration: turn.Iteration, Usage: comp.Usage})
		if turn.Repair != "" {
			tel.repair(ctx, turn)
			ev.emit(Event{Kind: EventRepair, Iteration: turn.Iteration, Text: turn.Repair})
		}
		if turn.Done {
			ev.emit(Event{Kind: EventDone, Iteration: turn.Iteration, Response: resp})
			return resp, nil
		}
		invs := b.callTools(ctx, turn.Run, s, turn.Iteration)
		for i, inv := range turn.Refused {
			ev.emit(Event{Kind: EventToolResult, Iteration: turn.Iteration, Index: len(turn.Run) + i, Invocation: inv})
		}
		if err := l.Record(invs); err != nil {
			return resp, err
		}
		if err := ctx.Err(); err != nil {
			return resp, err
		}
	}
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

// callTools runs calls, at most Concurrency at once, and returns their
// invocations in call order.
func (b *BoundAgent) callTools(ctx context.Context, calls []ToolCall, s *runState, iter int) []Invocation {
	ev := s.ev
	invs := make([]Invocation, len(calls))
	if len(calls) == 1 {
		invs[0] = b.callTool(ctx, calls[0], s, iter, 0)
		return invs
	}
	sem := make(chan struct{}, s.opts.Concurrency)
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
			invs[i] = b.callTool(ctx, call, s, iter, i)
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

// Call runs one tool call exactly as Run runs a model's: the arguments are
// validated against the tool's schema and given their defaults, the tool
// runs under the tool timeout, and an unknown tool, invalid arguments, an
// error, a panic or a timeout is the Invocation's *ToolCallError, with the
// message Run would send the model. Servers that expose an agent's tools
// to other callers (runtime/mcp) call it.
func (b *BoundAgent) Call(ctx context.Context, call ToolCall, opts ...Option) Invocation {
	o := optionsOf(opts)
	s := &runState{opts: o, telemetry: newTelemetry(&o, b.Agent), ev: &events{f: o.OnEvent}}
	return b.callTool(ctx, call, s, 0, 0)
}

// callTool validates a call's arguments and runs the tool. Every failure
// becomes a *ToolCallError in the invocation.
func (b *BoundAgent) callTool(ctx context.Context, call ToolCall, s *runState, iter, index int) (inv Invocation) {
	ev := s.ev
	start := time.Now()
	inv = Invocation{CallID: call.ID, Tool: call.Name}
	ev.emit(Event{Kind: EventToolCall, Iteration: iter, Index: index, Call: call})
	var spec *ToolSpecification
	if bt, ok := b.tools[call.Name]; ok {
		spec = &bt.tool.Spec
	}
	ctx, endTool := s.telemetry.tool(ctx, spec, call)
	defer func() {
		inv.Duration = time.Since(start)
		endTool(inv)
		ev.emit(Event{Kind: EventToolResult, Iteration: iter, Index: index, Invocation: inv})
	}()
	args, tce := b.Validate(call)
	if tce != nil {
		inv.Args = rawArgs(call.Arguments)
		inv.Err = tce
		return inv
	}
	inv.Args = args
	ctx, nested, err := b.startAgentCall(ctx, call, args, s)
	if err != nil {
		inv.Err = &ToolCallError{Tool: call.Name, Kind: ToolFailed, Message: fmt.Sprintf("tool %s failed: %v", call.Name, err), Err: err}
		return inv
	}
	res, value, tce := b.invoke(ctx, call.Name, args, s.opts.ToolTimeout)
	inv.Agent = nested.response()
	if tce != nil {
		inv.Err = tce
		return inv
	}
	inv.Result, inv.Value = res, value
	return inv
}

// Validate checks a call as Run does before running it: the agent has the
// tool and the arguments are valid against its schema. It returns the
// arguments with their defaults applied, or the *ToolCallError (UnknownTool
// or InvalidArguments) whose message Run sends the model. It is pure: a
// durable engine validates calls in its deterministic workflow code.
func (b *BoundAgent) Validate(call ToolCall) (json.RawMessage, *ToolCallError) {
	bt, ok := b.tools[call.Name]
	if !ok {
		msg := fmt.Sprintf("unknown tool %q", call.Name) + suggest.DidYouMean(suggest.Closest(call.Name, b.names))
		if len(b.names) > 0 {
			msg += " (the available tools are " + strings.Join(b.names, ", ") + ")"
		} else {
			msg += "; this agent has no tools"
		}
		return nil, &ToolCallError{Tool: call.Name, Kind: UnknownTool, Message: msg}
	}
	args, err := bt.args.prepareArgs(call.Arguments)
	if err != nil {
		return nil, &ToolCallError{Tool: call.Name, Kind: InvalidArguments,
			Message: fmt.Sprintf("invalid arguments for tool %s: %v", call.Name, err)}
	}
	return args, nil
}

// Invoke runs the tool name with arguments Validate returned, under
// timeout (0: no limit beyond ctx), and returns the result text sent to
// the model. A failure, a panic, a timeout, a result that cannot be
// encoded or one that is not of the tool's declared return type
// (ValidateOutput) is a *ToolCallError with the message Run sends the
// model.
func (b *BoundAgent) Invoke(ctx context.Context, name string, args json.RawMessage, timeout time.Duration) (string, *ToolCallError) {
	res, _, err := b.invoke(ctx, name, args, timeout)
	return res, err
}

// invoke is Invoke, also returning the result's value apart from its
// text when the tool gave them apart (a ToolResult; else nil).
func (b *BoundAgent) invoke(ctx context.Context, name string, args json.RawMessage, timeout time.Duration) (string, json.RawMessage, *ToolCallError) {
	bt, ok := b.tools[name]
	if !ok {
		return "", nil, &ToolCallError{Tool: name, Kind: UnknownTool, Message: fmt.Sprintf("unknown tool %q", name)}
	}
	tctx, cancel := ctx, context.CancelFunc(func() {})
	// A listed agent's run is bounded by its own limits (its tools'
	// timeout, its iterations), not by one tool call's.
	if _, listed := b.agents[name]; timeout > 0 && !listed {
		tctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	done := make(chan toolOutcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- toolOutcome{err: &ToolCallError{Tool: name, Kind: ToolPanicked,
					Message: fmt.Sprintf("tool %s failed: panic: %v", name, r),
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
		return "", nil, b.toolError(ctx, tctx, name, timeout, out.err)
	}
	// A ToolResult's text is what the model reads; its value is what is
	// checked against the return type and kept (an MCP server's
	// structuredContent).
	tr, apart := out.val.(ToolResult)
	if apart {
		out.val = tr.Text
		if tr.Value != nil {
			out.val = tr.Value
		}
	}
	res, err := encodeResult(out.val)
	if err != nil {
		return "", nil, &ToolCallError{Tool: name, Kind: BadResult, Message: fmt.Sprintf("tool %s returned a result that cannot be encoded as JSON: %v", name, err), Err: err}
	}
	// A result must be of the declared return type, wherever the tool
	// is called from (a model's run, an MCP host, a durable activity).
	if err := ValidateOutput(b.Agent.Tools[bt.index], json.RawMessage(res)); err != nil {
		return "", nil, &ToolCallError{Tool: name, Kind: BadResult, Message: err.Error(), Err: err}
	}
	if apart && tr.Value != nil {
		return tr.Text, tr.Value, nil
	}
	return res, nil, nil
}

func (b *BoundAgent) toolError(ctx, tctx context.Context, name string, timeout time.Duration, err error) *ToolCallError {
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
