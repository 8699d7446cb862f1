package runtime

import "context"

// Recorder records the telemetry of runs an engine of its own drives
// through a Loop, one piece where each piece runs (package durable: the
// agent's span in its workflow, a model request's in the model activity,
// a tool call's in the tool activity): the spans and metrics Run records
// (telemetry.go), made by the same code. A nil *Recorder records nothing.
type Recorder struct {
	t *telemetry
}

// NewRecorder is the recorder of agent's runs as opts say (the telemetry
// options: WithTracerProvider, WithMeterProvider, WithContentCapture,
// WithContentRedactor, WithProviderName); nil when they record nothing.
func NewRecorder(agent Agent, opts ...Option) *Recorder {
	var o RunOptions
	for _, opt := range opts {
		opt(&o)
	}
	t := newTelemetry(&o, agent)
	if t == nil {
		return nil
	}
	return &Recorder{t: t}
}

func (r *Recorder) telemetry() *telemetry {
	if r == nil {
		return nil
	}
	return r.t
}

// StartAgent starts a run's invoke_agent span under ctx's; end closes it
// with the run's Response (its usage; nil when there is none) and error.
func (r *Recorder) StartAgent(ctx context.Context, a Agent) (_ context.Context, end func(*Response, error)) {
	return r.telemetry().agent(ctx, a)
}

// StartChat starts a model request's chat span under ctx's; done ends it
// with the completion or the error and records the request's metrics.
func (r *Recorder) StartChat(ctx context.Context, req *Request) (_ context.Context, done func(*Completion, error)) {
	ctx, done, _ = r.telemetry().chat(ctx, req, false)
	return ctx, done
}

// StartTool starts the execute_tool span of b's call under ctx's; done
// ends it with the invocation.
func (r *Recorder) StartTool(ctx context.Context, b *BoundAgent, call ToolCall) (_ context.Context, done func(Invocation)) {
	var spec *ToolSpecification
	if bt, ok := b.tools[call.Name]; ok {
		spec = &bt.tool.Spec
	}
	return r.telemetry().tool(ctx, spec, call)
}
