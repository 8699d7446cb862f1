package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	"github.com/gramc-dev/gramc/runtime"
)

// The names the workflow and its activities are registered under; a
// starter in any language starts WorkflowName with an Input.
const (
	WorkflowName     = "gramc.RunAgent"
	ActivityComplete = "gramc.Complete"
	ActivityCallTool = "gramc.CallTool"
)

// Defaults for the zero Config fields.
const (
	DefaultModelTimeout       = 5 * time.Minute
	DefaultToolTimeout        = 10 * time.Minute
	DefaultToolHeartbeat      = 30 * time.Second
	DefaultContinueAsNewAfter = 10_000
	DefaultContinueAsNewTurns = 100
	// DefaultMaxPayloadBytes is Temporal's default limit on one payload
	// (the server's limit.blobSize.error, 2 MiB).
	DefaultMaxPayloadBytes = 2 << 20
)

// Input starts a run: the agent (by name, as the worker registered it),
// the user's message and, to continue an earlier exchange, its
// conversation.
type Input struct {
	Agent        string                `json:"agent"`
	Input        string                `json:"input"`
	Conversation *runtime.Conversation `json:"conversation,omitempty"`
	// MaxIterations and MaxToolCalls override the agent's limits when
	// positive, as runtime.WithMaxIterations and WithMaxToolCalls do.
	MaxIterations int `json:"maxIterations,omitempty"`
	MaxToolCalls  int `json:"maxToolCalls,omitempty"`
	// MaxRequests, MaxRunToolCalls and MaxTokens are the run's budget, as
	// runtime.WithMaxRequests, WithMaxRunToolCalls and WithMaxTokens set
	// it: the run and its listed agents' child workflows draw from it
	// together.
	MaxRequests     int `json:"maxRequests,omitempty"`
	MaxRunToolCalls int `json:"maxRunToolCalls,omitempty"`
	MaxTokens       int `json:"maxTokens,omitempty"`
	// Resume is the run so far, carried over continue-as-new; a starter
	// leaves it nil.
	Resume *runtime.Response `json:"resume,omitempty"`
	// Child is the caller's decision on a listed agent's run, when the
	// workflow is one (agents.go): its level, iteration limit and share of
	// the caller's budget. A starter leaves it nil.
	Child *runtime.Child `json:"child,omitempty"`
}

// CompleteInput is ActivityComplete's input: one model request of an
// agent's run.
type CompleteInput struct {
	Agent   string          `json:"agent"`
	Request runtime.Request `json:"request"`
}

// ToolInput is ActivityCallTool's input: one validated tool call. With
// ToolOutput it parallels runtime/gemini's functionCall and
// functionResponse, a call and its answer in Gemini's wire format; these
// are the activity's payloads, named by agent.
type ToolInput struct {
	Agent  string          `json:"agent"`
	Tool   string          `json:"tool"`
	CallID string          `json:"callId"`
	Args   json.RawMessage `json:"args"`
}

// ToolOutput is ActivityCallTool's result. A tool that fails returns its
// error as data (Error, ErrorKind): the model is told and may correct
// itself, as in runtime.Run, and the activity is not retried. Only a call
// that never finished (its worker died, its heartbeat stopped) is retried.
type ToolOutput struct {
	Result    string                    `json:"result,omitempty"`
	Error     string                    `json:"error,omitempty"`
	ErrorKind runtime.ToolCallErrorKind `json:"errorKind,omitempty"`
	Duration  time.Duration             `json:"duration"`
}

// Config is what a worker serves.
type Config struct {
	// Agents are the agents the worker runs, bound to their tools
	// (runtime.Bind); the workflow finds one by its Agent.Name.
	Agents []*runtime.BoundAgent
	// Model returns the model an agent's requests go to. Turn the
	// client's own retries off (e.g. clientopt.WithMaxRetries(0)): the model
	// activity's RetryPolicy retries instead, and its attempts are in the
	// workflow's history.
	Model func(agent runtime.Agent) (runtime.Model, error)
	// ModelTimeout bounds one model request (DefaultModelTimeout).
	ModelTimeout time.Duration
	// ModelRetry is the model activity's retry policy (nil: Temporal's
	// default, exponential from 1 s to 100 s, unlimited attempts). A
	// provider's error that retrying cannot fix (a bad request, a wrong
	// key) is never retried.
	ModelRetry *temporal.RetryPolicy
	// ToolTimeout bounds one tool call (DefaultToolTimeout); a tool that
	// runs longer is told it timed out, as in runtime.Run.
	ToolTimeout time.Duration
	// ToolHeartbeat is how soon a tool call whose worker stopped
	// heartbeating is run again elsewhere (DefaultToolHeartbeat).
	ToolHeartbeat time.Duration
	// ToolRetry is the tool activity's retry policy for calls that did not
	// finish (nil: at most 3 attempts).
	ToolRetry *temporal.RetryPolicy
	// ContinueAsNewAfter is the history length (events) past which a run
	// continues as new between turns (DefaultContinueAsNewAfter), or
	// earlier when the server suggests it.
	ContinueAsNewAfter int
	// ContinueAsNewTurns bounds the turns (model requests) one workflow
	// run makes before it continues as new (DefaultContinueAsNewTurns).
	ContinueAsNewTurns int
	// MaxPayloadBytes is the server's limit on one payload
	// (DefaultMaxPayloadBytes; set it to the server's limit.blobSize.error
	// when that is changed). An activity's result over it, measured as
	// the default data converter encodes it, is never sent: the server
	// would refuse it, and the activity would time out and be retried —
	// the model asked again — for ever. A model answer over it fails the
	// run, not retried (ErrPayloadTooLarge); a tool result over it is a
	// tool error the model is told.
	MaxPayloadBytes int
	// Telemetry are the runtime options that record the runs' spans and
	// metrics (runtime.WithTracerProvider, WithMeterProvider,
	// WithContentCapture, ...), as runtime.Run takes them: invoke_agent
	// in the workflow, chat in the model activity, execute_tool in the
	// tool activity. Make the worker's client with TracingInterceptor on
	// the same provider, so that they are one trace per run (tracing.go).
	Telemetry []runtime.Option
}

// Worker holds a Config's agents and models, and registers the workflow
// and activities that run them.
type Worker struct {
	cfg    Config
	agents map[string]*runtime.BoundAgent
	models map[string]runtime.Model
	rec    map[string]*runtime.Recorder // by agent; none: no telemetry
}

// New checks cfg and resolves each agent's model.
func New(cfg Config) (*Worker, error) {
	if len(cfg.Agents) == 0 {
		return nil, errors.New("durable: no agents to serve")
	}
	if cfg.Model == nil {
		return nil, errors.New("durable: no Model function")
	}
	orDefault(&cfg.ModelTimeout, DefaultModelTimeout)
	orDefault(&cfg.ToolTimeout, DefaultToolTimeout)
	orDefault(&cfg.ToolHeartbeat, DefaultToolHeartbeat)
	if cfg.ToolRetry == nil {
		cfg.ToolRetry = &temporal.RetryPolicy{MaximumAttempts: 3}
	}
	orDefault(&cfg.ContinueAsNewAfter, DefaultContinueAsNewAfter)
	orDefault(&cfg.ContinueAsNewTurns, DefaultContinueAsNewTurns)
	orDefault(&cfg.MaxPayloadBytes, DefaultMaxPayloadBytes)
	w := &Worker{cfg: cfg, agents: map[string]*runtime.BoundAgent{}, models: map[string]runtime.Model{}}
	for _, b := range cfg.Agents {
		name := b.Agent.Name
		if _, dup := w.agents[name]; dup {
			return nil, fmt.Errorf("durable: agent %s given twice", name)
		}
		m, err := cfg.Model(b.Agent)
		if err != nil {
			return nil, fmt.Errorf("durable: agent %s: %w", name, err)
		}
		w.agents[name], w.models[name] = b, m
	}
	if err := w.addListed(); err != nil {
		return nil, err
	}
	w.recorders()
	return w, nil
}

// orDefault sets a Config's limit to def when it is not set: zero or
// negative.
func orDefault[T int | time.Duration](limit *T, def T) {
	if *limit <= 0 {
		*limit = def
	}
}

// Register registers the workflow and both activities under their names.
func (w *Worker) Register(r worker.Registry) {
	r.RegisterWorkflowWithOptions(w.tracedWorkflow, workflow.RegisterOptions{Name: WorkflowName})
	r.RegisterActivityWithOptions(w.Complete, activity.RegisterOptions{Name: ActivityComplete})
	r.RegisterActivityWithOptions(w.CallTool, activity.RegisterOptions{Name: ActivityCallTool})
}

// Agents are the names of the agents the worker serves, sorted.
func (w *Worker) Agents() []string {
	names := make([]string, 0, len(w.agents))
	for n := range w.agents {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ErrorType is the type of an application error the workflow and its
// activities return (temporal.ApplicationError's Type). It is an error:
// Result's error matches errors.Is(err, ErrUnknownAgent) and the like.
type ErrorType string

func (t ErrorType) Error() string { return string(t) }

// The types of the workflow's and activities' application errors.
const (
	ErrUnknownAgent   ErrorType = "gramc.UnknownAgent"
	ErrAPI            ErrorType = "gramc.APIError"
	ErrIterationLimit ErrorType = "gramc.IterationLimit"
	ErrInvalidInput   ErrorType = "gramc.InvalidInput"
	// ErrOutput: a typed agent's answer was not a value of its output
	// type after its repair turns, or the model refused (the details
	// hold the Response; the message carries the raw answer's error).
	ErrOutput ErrorType = "gramc.OutputError"
	// ErrPayloadTooLarge: an activity's result is over
	// Config.MaxPayloadBytes.
	ErrPayloadTooLarge ErrorType = "gramc.PayloadTooLarge"
	// ErrBudget: the run, its listed agents included, spent its budget
	// (runtime.BudgetError; the details hold the Response).
	ErrBudget ErrorType = "gramc.Budget"
)

// runError is the workflow's error for a Loop's: a known failure of the
// run is a non-retryable application error of its ErrorType carrying the
// run so far (its caller, a listed agent's parent workflow, counts what
// it spent); another is returned as it is.
func runError(err error, l *runtime.Loop) error {
	var lim *runtime.IterationLimitError
	var oe *runtime.OutputError
	var be *runtime.BudgetError
	typ := ErrorType("")
	switch {
	case errors.As(err, &lim):
		typ = ErrIterationLimit
	case errors.As(err, &oe):
		typ = ErrOutput
	case errors.As(err, &be):
		typ = ErrBudget
	default:
		return err
	}
	return temporal.NewNonRetryableApplicationError(err.Error(), string(typ), nil, l.Response())
}

// errorTypes are the ErrorTypes Result recognises.
var errorTypes = []ErrorType{ErrUnknownAgent, ErrAPI, ErrIterationLimit, ErrInvalidInput, ErrOutput, ErrPayloadTooLarge, ErrBudget}

// typedError is an error of a run whose application error has a known
// ErrorType: errors.Is finds both.
type typedError struct {
	typ ErrorType
	err error
}

func (e *typedError) Error() string   { return e.err.Error() }
func (e *typedError) Unwrap() []error { return []error{e.typ, e.err} }

// payloadSize is the size of v as the default data converter sends it.
func payloadSize(v any) (int, error) {
	p, err := converter.GetDefaultDataConverter().ToPayload(v)
	if err != nil {
		return 0, err
	}
	return proto.Size(p), nil
}

// overLimit says why a result of size bytes cannot be sent ("" if it can).
func (w *Worker) overLimit(what string, size int) string {
	if size <= w.cfg.MaxPayloadBytes {
		return ""
	}
	return fmt.Sprintf("%s is %d bytes, over the %d-byte limit of a Temporal payload (durable.Config.MaxPayloadBytes)", what, size, w.cfg.MaxPayloadBytes)
}

// Workflow runs one agent: runtime.Loop's decisions, with each model
// request and each valid tool call an activity. It is deterministic: the
// Loop and Validate are pure, and everything else comes from activities.
func (w *Worker) Workflow(ctx workflow.Context, in Input) (*runtime.Response, error) {
	b, ok := w.agents[in.Agent]
	if !ok {
		return nil, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("this worker serves no agent %q (it serves %v)", in.Agent, w.Agents()), string(ErrUnknownAgent), nil)
	}
	o := runtime.RunOptions{MaxIterations: in.MaxIterations, MaxToolCalls: in.MaxToolCalls,
		MaxRequests: in.MaxRequests, MaxRunToolCalls: in.MaxRunToolCalls, MaxTokens: in.MaxTokens}
	var l *runtime.Loop
	var err error
	switch {
	case in.Resume != nil:
		l, err = runtime.ResumeLoop(b.Agent, in.Resume, o, in.Child)
	case in.Child != nil:
		l, err = runtime.NewChildLoop(b.Agent, *in.Child, o)
	default:
		l, err = runtime.NewLoop(b.Agent, in.Input, in.Conversation, o)
	}
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), string(ErrInvalidInput), nil)
	}
	mctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: w.cfg.ModelTimeout,
		RetryPolicy:         w.cfg.ModelRetry,
	})
	tctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// The tool's own timeout answers the model; the activity's is a
		// backstop a little later.
		StartToCloseTimeout: w.cfg.ToolTimeout + time.Minute,
		HeartbeatTimeout:    w.cfg.ToolHeartbeat,
		RetryPolicy:         w.cfg.ToolRetry,
	})
	for turns := 0; ; turns++ {
		if info := workflow.GetInfo(ctx); turns > 0 && (turns >= w.cfg.ContinueAsNewTurns ||
			info.GetContinueAsNewSuggested() || info.GetCurrentHistoryLength() > w.cfg.ContinueAsNewAfter) {
			next := in
			next.Resume, next.Input, next.Conversation = l.Response(), "", nil
			return nil, workflow.NewContinueAsNewError(ctx, WorkflowName, next)
		}
		req, err := l.Next()
		if err != nil {
			return nil, runError(err, l)
		}
		var comp runtime.Completion
		if err := workflow.ExecuteActivity(mctx, ActivityComplete, CompleteInput{Agent: in.Agent, Request: *req}).Get(ctx, &comp); err != nil {
			l.Failed()
			return nil, err
		}
		turn, err := l.Receive(&comp)
		if err != nil {
			return nil, runError(err, l)
		}
		if turn.Done {
			return l.Response(), nil
		}
		invs := make([]runtime.Invocation, len(turn.Run))
		futures := make([]workflow.Future, len(turn.Run))
		listed := make([]*runtime.Child, len(turn.Run))
		for i, call := range turn.Run {
			invs[i] = runtime.Invocation{CallID: call.ID, Tool: call.Name}
			args, tce := b.Validate(call)
			if tce != nil {
				raw, _ := json.Marshal(call.Arguments)
				invs[i].Args, invs[i].Err = raw, tce
				continue
			}
			invs[i].Args = args
			if b.RunsAgent(call.Name) {
				// A listed agent runs as a child workflow (agents.go).
				futures[i], listed[i] = w.startChild(ctx, in, l, call, args, &invs[i])
				continue
			}
			futures[i] = workflow.ExecuteActivity(tctx, ActivityCallTool, ToolInput{Agent: in.Agent, Tool: call.Name, CallID: call.ID, Args: args})
		}
		for i, f := range futures {
			if f == nil {
				continue
			}
			if listed[i] != nil {
				childResult(ctx, f, l, *listed[i], &invs[i])
				continue
			}
			var out ToolOutput
			if err := f.Get(ctx, &out); err != nil {
				// The call never finished, even after its retries: the
				// model is told, as for a failed tool.
				invs[i].Err = &runtime.ToolCallError{Tool: invs[i].Tool, Kind: runtime.ToolFailed,
					Message: fmt.Sprintf("tool %s failed: %v", invs[i].Tool, err)}
				continue
			}
			invs[i].Duration = out.Duration
			if out.Error != "" {
				invs[i].Err = &runtime.ToolCallError{Tool: invs[i].Tool, Kind: out.ErrorKind, Message: out.Error}
				continue
			}
			invs[i].Result = out.Result
		}
		if err := l.Record(invs); err != nil {
			return nil, err
		}
	}
}

// Complete is ActivityComplete: one request to the agent's model. A
// provider error that retrying cannot fix is not retried.
func (w *Worker) Complete(ctx context.Context, in CompleteInput) (*runtime.Completion, error) {
	m, ok := w.models[in.Agent]
	if !ok {
		return nil, temporal.NewNonRetryableApplicationError(fmt.Sprintf("this worker serves no agent %q", in.Agent), string(ErrUnknownAgent), nil)
	}
	ctx, done := w.rec[in.Agent].StartChat(ctx, &in.Request)
	comp, err := m.Complete(ctx, &in.Request)
	done(comp, err)
	if err != nil {
		var api *runtime.APIError
		if errors.As(err, &api) && !api.Retryable {
			return nil, temporal.NewNonRetryableApplicationError(err.Error(), string(ErrAPI), nil)
		}
		return nil, temporal.NewApplicationError(err.Error(), string(ErrAPI))
	}
	if comp == nil {
		return nil, temporal.NewNonRetryableApplicationError("the model returned no completion and no error", string(ErrAPI), nil)
	}
	// An answer the server would refuse is not sent: asking again would
	// get another such answer, for ever.
	size, err := payloadSize(comp)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError("encoding the model's answer: "+err.Error(), string(ErrAPI), nil)
	}
	if why := w.overLimit("the model's answer", size); why != "" {
		return nil, temporal.NewNonRetryableApplicationError(why, string(ErrPayloadTooLarge), nil)
	}
	return comp, nil
}

// IdempotencyKey is the key of the durable tool call ctx runs:
// "WORKFLOW/CALL", the workflow ID and the call ID, the same on every
// attempt. A call whose worker died is run again with the same key, so a
// tool with side effects can make them once: record the key with the
// effect and skip an effect already recorded. It is
// runtime.IdempotencyKey, which tool commands get as GRAMC_IDEMPOTENCY_KEY.
func IdempotencyKey(ctx context.Context) string { return runtime.IdempotencyKey(ctx) }

// CallTool is ActivityCallTool: one validated call, run as runtime.Run
// runs it (timeout, panics, encoding), heartbeating while it runs. Its
// failure is returned as data for the model.
func (w *Worker) CallTool(ctx context.Context, in ToolInput) (ToolOutput, error) {
	b, ok := w.agents[in.Agent]
	if !ok {
		return ToolOutput{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("this worker serves no agent %q", in.Agent), string(ErrUnknownAgent), nil)
	}
	info := activity.GetInfo(ctx)
	ctx = runtime.WithIdempotencyKey(ctx, info.WorkflowExecution.ID+"/"+in.CallID)
	defer Heartbeat(ctx)()
	call := runtime.ToolCall{ID: in.CallID, Name: in.Tool, Arguments: string(in.Args)}
	ctx, done := w.rec[in.Agent].StartTool(ctx, b, call)
	start := time.Now()
	res, tce := b.Invoke(ctx, in.Tool, in.Args, w.cfg.ToolTimeout)
	out := ToolOutput{Result: res, Duration: time.Since(start)}
	inv := runtime.Invocation{CallID: in.CallID, Tool: in.Tool, Args: in.Args, Result: res, Duration: out.Duration}
	if tce != nil {
		out.Error, out.ErrorKind = tce.Message, tce.Kind
		inv.Err = tce
	}
	done(inv)
	// A result the server would refuse is a tool error the model is told.
	if size, err := payloadSize(out); err == nil {
		if why := w.overLimit("the tool's result", size); why != "" {
			out = ToolOutput{Error: why, ErrorKind: runtime.BadResult, Duration: out.Duration}
		}
	}
	return out, nil
}

// Start starts a run of in on taskQueue (opts.ID names it: a run with
// that ID already under way is attached to rather than started again,
// with client.StartWorkflowOptions' usual ID policies).
func Start(ctx context.Context, c client.Client, opts client.StartWorkflowOptions, in Input) (client.WorkflowRun, error) {
	return c.ExecuteWorkflow(ctx, opts, WorkflowName, in)
}

// Result waits for run's end and returns its Response. A run that hit its
// iteration limit returns the partial Response with a
// *runtime.IterationLimitError, as runtime.Run does; another failure of a
// known ErrorType is an error errors.Is finds that type in.
func Result(ctx context.Context, run client.WorkflowRun) (*runtime.Response, error) {
	var resp runtime.Response
	err := run.Get(ctx, &resp)
	if err == nil {
		return &resp, nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.Type() == string(ErrIterationLimit) && app.HasDetails() {
		var partial runtime.Response
		if app.Details(&partial) == nil {
			return &partial, &runtime.IterationLimitError{Limit: partial.Iterations, Response: &partial}
		}
	}
	if app != nil {
		for _, t := range errorTypes {
			if app.Type() == string(t) {
				return nil, &typedError{typ: t, err: err}
			}
		}
	}
	return nil, err
}

// Attach returns the run with workflow ID id (its latest run, after any
// continue-as-new).
func Attach(c client.Client, id string) client.WorkflowRun {
	return c.GetWorkflow(context.Background(), id, "")
}

// Heartbeat records the heartbeat of the activity ctx runs, three times
// per heartbeat timeout (none without one), until stop is called (defer
// it): the server then knows the activity's worker is alive, and runs it
// again elsewhere once the heartbeats stop.
func Heartbeat(ctx context.Context) (stop func()) {
	hb := activity.GetInfo(ctx).HeartbeatTimeout
	if hb <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(hb / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}
