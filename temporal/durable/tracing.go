package durable

import (
	"context"
	"strings"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/workflow"

	"github.com/gramc-dev/gramc/runtime"
)

// Tracing: a durable run records the spans gramc run records
// (docs/observability.md) — invoke_agent for the run, chat for each model
// request, execute_tool for each tool call, a listed agent's run nested
// under its execute_tool — in one trace that Temporal's OpenTelemetry
// interceptor (go.temporal.io/sdk/contrib/opentelemetry) carries in the
// headers of the workflow, its activities and its child workflows, from
// the client that starts the run to every worker that runs a piece of it:
//
//	StartWorkflow:gramc.RunAgent             the starter (gramc-temporal run)
//	└── RunWorkflow:gramc.RunAgent           a worker
//	    └── invoke_agent triage              the workflow
//	        ├── StartActivity:gramc.Complete
//	        │   └── RunActivity:gramc.Complete
//	        │       └── chat gpt-4o-mini     the model activity
//	        ├── StartActivity:gramc.CallTool
//	        │   └── RunActivity:gramc.CallTool
//	        │       └── execute_tool lookup  the tool activity
//	        └── StartChildWorkflow:gramc.RunAgent
//	            └── RunWorkflow:gramc.RunAgent
//	                └── execute_tool billing  a listed agent's call...
//	                    └── invoke_agent billing  ...and its run
//
// The workflow's own spans (invoke_agent, a listed agent's execute_tool)
// are made only when the workflow is not replaying, as the interceptor
// makes its own; they record nothing the workflow decides on, so the
// workflow stays deterministic. A run whose worker died goes on under the
// new worker's RunWorkflow span, in the same trace; the dead worker's
// invoke_agent span is never ended (nor exported).

// spanKey is the workflow context key of the span the interceptor starts
// workflow spans under: TracingInterceptor's, so that the workflow's
// invoke_agent span is the parent of its activities' spans.
type spanKey struct{}

// spans converts between OpenTelemetry spans and the interceptor's: a
// tracer of the contrib module's, which records nothing itself.
var spans, _ = temporalotel.NewTracer(temporalotel.TracerOptions{
	Tracer: noop.NewTracerProvider().Tracer(""), SpanContextKey: spanKey{},
})

// TracingInterceptor is Temporal's OpenTelemetry interceptor recording to
// tp, for the client.Options.Interceptors of the client that starts runs
// and of the one each worker is made from: it carries a run's trace from
// the starter through the workflow, its activities and its child
// workflows. Give the worker's Config the same provider (Telemetry) for
// the GenAI spans.
func TracingInterceptor(tp trace.TracerProvider) (interceptor.Interceptor, error) {
	return temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{
		Tracer:         tp.Tracer("go.temporal.io/sdk"),
		SpanContextKey: spanKey{},
	})
}

// recorders makes the runtime's recorder of each agent served (none when
// Config.Telemetry records nothing).
func (w *Worker) recorders() {
	w.rec = map[string]*runtime.Recorder{}
	for name, b := range w.agents {
		if r := runtime.NewRecorder(b.Agent, w.cfg.Telemetry...); r != nil {
			w.rec[name] = r
		}
	}
}

// tracedWorkflow is Workflow in the run's invoke_agent span (and, for a
// listed agent's run, in the caller's execute_tool span of its call),
// made when the workflow is not replaying.
func (w *Worker) tracedWorkflow(ctx workflow.Context, in Input) (*runtime.Response, error) {
	rec, b := w.rec[in.Agent], w.agents[in.Agent]
	if rec == nil || b == nil || workflow.IsReplaying(ctx) {
		return w.Workflow(ctx, in)
	}
	gctx := context.Background()
	if parent, ok := ctx.Value(spanKey{}).(interceptor.TracerSpan); ok && parent != nil {
		gctx = spans.ContextWithSpan(gctx, parent)
	}
	endTool := func(*runtime.Response, error) {}
	if caller, call, ok := w.listedCall(ctx, in); ok {
		var done func(runtime.Invocation)
		gctx, done = w.rec[caller.Agent.Name].StartTool(gctx, caller, call)
		endTool = func(resp *runtime.Response, err error) {
			inv := runtime.Invocation{CallID: call.ID, Tool: call.Name, Agent: resp, Err: err}
			if resp != nil {
				inv.Result = resp.ToolResult()
			}
			done(inv)
		}
	}
	gctx, endAgent := rec.StartAgent(gctx, b.Agent)
	ctx = workflow.WithValue(ctx, spanKey{}, spans.SpanFromContext(gctx))
	// Not deferred: a workflow the worker evicts from its cache unwinds
	// here without ending, and its spans must not end then.
	resp, err := w.Workflow(ctx, in)
	if workflow.IsContinueAsNewError(err) {
		endAgent(nil, nil)
		endTool(nil, nil)
		return resp, err
	}
	endAgent(resp, err)
	endTool(resp, err)
	return resp, err
}

// listedCall is, for the run of a listed agent (a child workflow, its ID
// "CALLER/CALL"), an agent that lists it and the call, as the caller's
// execute_tool span names it.
func (w *Worker) listedCall(ctx workflow.Context, in Input) (*runtime.BoundAgent, runtime.ToolCall, bool) {
	info := workflow.GetInfo(ctx)
	if in.Child == nil || info.ParentWorkflowExecution == nil {
		return nil, runtime.ToolCall{}, false
	}
	callID, ok := strings.CutPrefix(info.WorkflowExecution.ID, info.ParentWorkflowExecution.ID+"/")
	if !ok {
		return nil, runtime.ToolCall{}, false
	}
	for _, name := range w.Agents() {
		if w.agents[name].RunsAgent(in.Agent) && w.rec[name] != nil {
			return w.agents[name], runtime.ToolCall{ID: callID, Name: in.Agent, Arguments: in.Input}, true
		}
	}
	return nil, runtime.ToolCall{}, false
}
