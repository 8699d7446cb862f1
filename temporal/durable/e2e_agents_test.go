package durable_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/server/temporaltest"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/temporal/durable"
)

// Agents as tools, durably (issue 34.6): desk lists researcher, which is
// e2eAgent under another name (note and slow, from the same library).
var researcherAgent = func() runtime.Agent {
	a := e2eAgent
	a.Name, a.Description = "researcher", "Takes notes slowly"
	return a
}()

var deskAgent = runtime.Agent{
	Name:        "desk",
	Model:       "OpenAI/gpt-4o-mini",
	Instruction: "Delegate to the researcher.",
	Tools:       []runtime.ToolSpecification{runtime.AgentToolSpec(researcherAgent)},
	Agents:      []runtime.Agent{researcherAgent},
}

// bindAll binds agents to the e2e tools logging to dir.
func bindAll(dir string, agents ...runtime.Agent) ([]*runtime.BoundAgent, error) {
	var out []*runtime.BoundAgent
	for _, a := range agents {
		b, err := runtime.Bind(a, e2eTools(dir))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// deskPolicy: desk calls researcher, then answers with its result;
// researcher is e2ePolicy (note and slow, then their results).
func deskPolicy(t *runtimetest.Turn, n int) runtimetest.Reply {
	if t.System != deskAgent.Instruction {
		return e2ePolicy(t, n)
	}
	if t.Last().Role == runtime.RoleTool {
		return runtimetest.Echo(t, n)
	}
	return runtimetest.ToolCallsReply(runtimetest.FakeCall{ID: "call_research", Name: "researcher", Arguments: `{"input":"take a note"}`})
}

// TestWorkerCrashInChild: the listed agent runs as a child workflow of
// the caller's; its worker is killed while the child's tool runs; a new
// worker finishes the child and then the caller. Every activity that
// completed ran once, the child's history is its own, and the answer and
// the nested run equal those of runtime.Run without a crash.
func TestWorkerCrashInChild(t *testing.T) {
	refModel, err := e2eModel(runtimetest.NewProviderServer(t, runtimetest.OpenAI, deskPolicy).URL)
	if err != nil {
		t.Fatal(err)
	}
	want, err := runtime.Run(context.Background(), refModel, deskAgent, e2eTools(t.TempDir()), "research the milk", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want.Invocations[0].Agent == nil || len(want.Invocations[0].Agent.Invocations) != 2 {
		t.Fatalf("the reference run did not run the child: %+v", want.Invocations)
	}

	ts := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(client.Options{Logger: quietLogger()}))
	c := ts.GetDefaultClient()
	addr, ns := ts.GetFrontendHostPort(), ts.GetDefaultNamespace()
	fake := runtimetest.NewProviderServer(t, runtimetest.OpenAI, deskPolicy)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hold"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w1 := startWorker(t, addr, ns, fake.URL, dir)

	ctx := context.Background()
	run, err := durable.Start(ctx, c, client.StartWorkflowOptions{ID: "e2e-child", TaskQueue: taskQueue}, durable.Input{Agent: deskAgent.Name, Input: "research the milk"})
	if err != nil {
		t.Fatal(err)
	}
	childID := "e2e-child/call_research"
	// Kill the worker once the child's slow has started and its note's
	// activity completed; the caller waits on its child workflow.
	waitFor(t, "the child's slow to start and its note to complete", func() bool {
		if countLines(t, dir, "start slow "+childID+"/call_slow") == 0 {
			return false
		}
		d, err := c.DescribeWorkflowExecution(ctx, childID, "")
		if err != nil {
			return false
		}
		pending := d.GetPendingActivities()
		return len(pending) == 1 && pending[0].GetActivityType().GetName() == durable.ActivityCallTool &&
			pending[0].GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED
	})
	parent, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	if pc := parent.GetPendingChildren(); len(pc) != 1 || pc[0].GetWorkflowId() != childID {
		t.Fatalf("the caller's pending children: %v, want the child workflow %s", pc, childID)
	}
	if err := w1.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w1.Wait()
	t.Logf("worker 1 killed with the child's slow running; log: %q", readLog(t, dir))
	os.Remove(filepath.Join(dir, "hold"))

	startWorker(t, addr, ns, fake.URL, dir)
	got, err := durable.Result(ctx, durable.Attach(c, run.GetID()))
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != want.Content {
		t.Errorf("answer after the crash:\n%s\nwant (no crash):\n%s", got.Content, want.Content)
	}
	if len(got.Invocations) != 1 || got.Invocations[0].Tool != "researcher" || got.Invocations[0].Result != want.Invocations[0].Result || got.Invocations[0].Err != nil {
		t.Fatalf("the caller's invocations %+v, want researcher's %q", got.Invocations, want.Invocations[0].Result)
	}
	nested := got.Invocations[0].Agent
	if nested == nil || len(nested.Invocations) != 2 {
		t.Fatalf("the nested run: %+v", nested)
	}
	for i, w := range want.Invocations[0].Agent.Invocations {
		if g := nested.Invocations[i]; g.Tool != w.Tool || g.Result != w.Result || g.Err != nil {
			t.Errorf("nested invocation %d = %s %q (%v), want %s %q", i, g.Tool, g.Result, g.Err, w.Tool, w.Result)
		}
	}
	// The child's note completed before the crash: it ran once; its slow
	// started twice (killed, retried) with one key and finished once.
	if n := countLines(t, dir, "done note "+childID+"/call_note"); n != 1 {
		t.Errorf("note ran %d times, want exactly 1", n)
	}
	if n := countLines(t, dir, "start slow "+childID+"/call_slow"); n != 2 {
		t.Errorf("slow started %d times with the same key, want 2 (killed, retried)", n)
	}
	if n := countLines(t, dir, "done slow "+childID+"/call_slow"); n != 1 {
		t.Errorf("slow finished %d times, want 1", n)
	}
	// Four model requests in all: the caller's two, the child's two; none
	// repeated after the crash.
	if reqs := len(fake.Turns()); reqs != 4 {
		t.Errorf("the provider saw %d requests, want 4", reqs)
	}
	// The child is a workflow of its own, started from the caller's
	// history.
	started := false
	iter := c.GetWorkflowHistory(ctx, run.GetID(), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil {
			started = a.GetWorkflowId() == childID && a.GetWorkflowType().GetName() == durable.WorkflowName
		}
	}
	if !started {
		t.Errorf("the caller's history starts no child workflow %s", childID)
	}
}
