package durable_test

import (
	"context"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/temporal/durable"
)

// Agents as tools, durably (issue 34.6): desk lists researcher, which is
// e2eAgent under another name (note and slow, from the same library).
// Parallel to workflow_agents_test.go's greeter and front desk, the same
// listing for the worker process's tools.
var (
	researcherAgent = renamed(e2eAgent, "researcher", "Takes notes slowly")
	deskAgent       = delegator("desk", "OpenAI/gpt-4o-mini", "Delegate to the researcher.", researcherAgent)
)

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
	want := inProcess(t, deskPolicy, deskAgent, "research the milk")
	if want.Invocations[0].Agent == nil || len(want.Invocations[0].Agent.Invocations) != 2 {
		t.Fatalf("the reference run did not run the child: %+v", want.Invocations)
	}

	e := newE2E(t, deskPolicy)
	id := "e2e-child"
	childID := id + "/call_research"
	// The caller waits on its child workflow while the child's slow runs.
	got := e.runWithCrash(id, durable.Input{Agent: deskAgent.Name, Input: "research the milk"}, childID, func(run client.WorkflowRun) {
		parent, err := e.c.DescribeWorkflowExecution(context.Background(), run.GetID(), run.GetRunID())
		if err != nil {
			t.Fatal(err)
		}
		if pc := parent.GetPendingChildren(); len(pc) != 1 || pc[0].GetWorkflowId() != childID {
			t.Fatalf("the caller's pending children: %v, want the child workflow %s", pc, childID)
		}
	})
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
	e.checkRanOnce(childID)
	// Four model requests in all: the caller's two, the child's two; none
	// repeated after the crash.
	if reqs := len(e.fake.Turns()); reqs != 4 {
		t.Errorf("the provider saw %d requests, want 4", reqs)
	}
	// The child is a workflow of its own, started from the caller's
	// history.
	started := false
	iter := e.c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
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
