package durable_test

import (
	"context"
	"testing"

	"github.com/nexus-rpc/sdk-go/nexus"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/temporal/durable"
)

// TestTracedRunReplays (issue 49.8): a run of desk, which lists
// researcher, traced on a real Temporal server, is one trace whose GenAI
// spans nest as in gramc run (researcher's run inside desk's call of it,
// through the child workflow); its histories, the caller's and the
// child's, replay with no nondeterminism error with the tracing
// interceptor and without it (the spans change no command), and a
// replay makes no invoke_agent span again.
func TestTracedRunReplays(t *testing.T) {
	e := newE2E(t, deskPolicy)
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	ti, err := durable.TracingInterceptor(tp)
	if err != nil {
		t.Fatal(err)
	}
	agents, err := bindAll(e.dir, deskAgent)
	if err != nil {
		t.Fatal(err)
	}
	w, err := durable.New(durable.Config{
		Agents:    agents,
		Model:     func(runtime.Agent) (runtime.Model, error) { return e2eModel(e.fake.URL) },
		Telemetry: []runtime.Option{runtime.WithTracerProvider(tp)},
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(client.Options{HostPort: e.addr, Namespace: e.ns, Logger: quietLogger(),
		Interceptors: []interceptor.ClientInterceptor{ti}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	wk := worker.New(c, "traced", worker.Options{})
	w.Register(wk)
	if err := wk.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run, err := durable.Start(ctx, c, client.StartWorkflowOptions{ID: "traced-1", TaskQueue: "traced"},
		durable.Input{Agent: deskAgent.Name, Input: "research the milk"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := durable.Result(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	wk.Stop()
	if want := inProcess(t, deskPolicy, deskAgent, "research the milk"); resp.Content != want.Content {
		t.Errorf("answer %q; runtime.Run's %q", resp.Content, want.Content)
	}

	spans := exp.GetSpans()
	byID := map[string]tracetest.SpanStub{}
	traces := map[string]bool{}
	for _, s := range spans {
		byID[s.SpanContext.SpanID().String()] = s
		traces[s.SpanContext.TraceID().String()] = true
	}
	if len(traces) != 1 {
		t.Errorf("%d traces; want 1", len(traces))
	}
	edges := map[[2]string]bool{} // {span, parent}
	for _, s := range spans {
		edges[[2]string{s.Name, byID[s.Parent.SpanID().String()].Name}] = true
	}
	for _, want := range [][2]string{
		{"StartWorkflow:gramc.RunAgent", ""},
		{"RunWorkflow:gramc.RunAgent", "StartWorkflow:gramc.RunAgent"},
		{"invoke_agent desk", "RunWorkflow:gramc.RunAgent"},
		{"StartChildWorkflow:gramc.RunAgent", "invoke_agent desk"},
		{"RunWorkflow:gramc.RunAgent", "StartChildWorkflow:gramc.RunAgent"},
		{"execute_tool researcher", "RunWorkflow:gramc.RunAgent"},
		{"invoke_agent researcher", "execute_tool researcher"},
		{"StartActivity:gramc.CallTool", "invoke_agent researcher"},
		{"execute_tool note", "RunActivity:gramc.CallTool"},
		{"execute_tool slow", "RunActivity:gramc.CallTool"},
		{"StartActivity:gramc.Complete", "invoke_agent desk"},
		{"StartActivity:gramc.Complete", "invoke_agent researcher"},
		{"chat gpt-4o-mini", "RunActivity:gramc.Complete"},
	} {
		if !edges[want] {
			t.Errorf("no span %s under %q", want[0], want[1])
		}
	}

	agentSpans := func() int {
		n := 0
		for _, s := range exp.GetSpans() {
			if s.Name == "invoke_agent desk" || s.Name == "invoke_agent researcher" {
				n++
			}
		}
		return n
	}
	before := agentSpans()
	for _, id := range []string{"traced-1", "traced-1/call_research"} {
		hist := history(t, c, id)
		for _, traced := range []bool{true, false} {
			opts := worker.WorkflowReplayerOptions{}
			if traced {
				opts.Interceptors = []interceptor.WorkerInterceptor{ti}
			}
			r, err := worker.NewWorkflowReplayerWithOptions(opts)
			if err != nil {
				t.Fatal(err)
			}
			w.Register(replayRegistry{r})
			// The original ID: the child's is the caller's and the call's.
			if err := r.ReplayWorkflowHistoryWithOptions(quietLogger(), hist, worker.ReplayWorkflowHistoryOptions{
				OriginalExecution: workflow.Execution{ID: id},
			}); err != nil {
				t.Errorf("replaying %s (tracing %v): %v", id, traced, err)
			}
		}
	}
	if n := agentSpans(); n != before {
		t.Errorf("the replays made %d invoke_agent spans", n-before)
	}
}

// history is workflow id's whole history.
func history(t *testing.T, c client.Client, id string) *historypb.History {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}

// replayRegistry is a replayer as a worker.Registry: durable.Worker's
// Register registers its activities too, which a replay never runs.
type replayRegistry struct{ worker.WorkflowReplayer }

func (replayRegistry) RegisterActivity(any)                                         {}
func (replayRegistry) RegisterActivityWithOptions(any, activity.RegisterOptions)    {}
func (replayRegistry) RegisterDynamicActivity(any, activity.DynamicRegisterOptions) {}
func (replayRegistry) RegisterNexusService(*nexus.Service)                          {}
