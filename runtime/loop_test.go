package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// driveLoop runs a Loop by hand, sequentially, the way a durable engine
// does: each model request and each tool call is a separate step, and
// Validate/Invoke run the calls.
func driveLoop(t *testing.T, b *runtime.BoundAgent, model runtime.Model, input string, o runtime.RunOptions) (*runtime.Response, error) {
	t.Helper()
	l, err := runtime.NewLoop(b.Agent, input, nil, o)
	if err != nil {
		return nil, err
	}
	for {
		req, err := l.Next()
		if err != nil {
			return l.Response(), err
		}
		comp, err := model.Complete(context.Background(), req)
		if err != nil {
			l.Failed()
			return l.Response(), err
		}
		turn, err := l.Receive(comp)
		if err != nil {
			return l.Response(), err
		}
		if turn.Done {
			return l.Response(), nil
		}
		var invs []runtime.Invocation
		for _, call := range turn.Run {
			inv := runtime.Invocation{CallID: call.ID, Tool: call.Name}
			args, tce := b.Validate(call)
			if tce != nil {
				raw, _ := json.Marshal(call.Arguments) // the arguments text, as Run records it
				inv.Args, inv.Err = raw, tce
			} else {
				inv.Args = args
				res, err := b.Invoke(context.Background(), call.Name, args, 0)
				if err != nil {
					inv.Err = err
				}
				inv.Result = res
			}
			invs = append(invs, inv)
		}
		if err := l.Record(invs); err != nil {
			t.Fatal(err)
		}
	}
}

// script is one turn of a good call, an unknown tool, invalid arguments
// and a call taking the defaults, then the answer.
func script() []runtimetest.Step { return runtimetest.MixedHelloCalls() }

// scriptOptions bound script()'s runs: the fourth of its calls is
// refused.
var scriptOptions = runtime.RunOptions{MaxToolCalls: 3}

// driveScript binds the hello agent and drives its Loop by hand through
// script() from input, with scriptOptions.
func driveScript(t *testing.T, input string) (*runtime.BoundAgent, *runtime.Response) {
	t.Helper()
	b, err := runtime.Bind(helloAgent, helloLib())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := driveLoop(t, b, runtimetest.NewScriptedModel(script()...), input, scriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	return b, resp
}

// TestLoopDrivenAsRun holds the Loop to Run: driving it step by step, as
// a workflow does, gives the same conversation, invocations and answer as
// Run, including unknown tools, invalid arguments and refused calls.
func TestLoopDrivenAsRun(t *testing.T) {
	b, got := driveScript(t, "hi, I am Alice")
	want, err := b.Run(context.Background(), runtimetest.NewScriptedModel(script()...), "hi, I am Alice", nil,
		runtime.WithMaxToolCalls(3), runtime.WithConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	opts := cmp.Options{
		cmpopts.IgnoreFields(runtime.Invocation{}, "Duration"),
		cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) && (a == nil || a.Error() == b.Error()) }),
	}
	if d := cmp.Diff(want, got, opts); d != "" {
		t.Errorf("Loop driven by hand differs from Run (-Run +Loop):\n%s", d)
	}
	if got.Content != "Hello, Alice! And hello, world!" || got.Iterations != 2 || len(got.Invocations) != 4 {
		t.Fatalf("response = %+v", got)
	}
	kinds := []runtime.ToolCallErrorKind{"", runtime.UnknownTool, runtime.InvalidArguments, runtime.TooManyCalls}
	for i, inv := range got.Invocations {
		var tce *runtime.ToolCallError
		kind := runtime.ToolCallErrorKind("")
		if errors.As(inv.Err, &tce) {
			kind = tce.Kind
		}
		if kind != kinds[i] {
			t.Errorf("invocation %d (%s): error kind %q, want %q (%v)", i, inv.Tool, kind, kinds[i], inv.Err)
		}
	}
}

// TestLoopReplays: the same completions and results give the same
// requests, byte for byte — what a workflow's replay relies on.
func TestLoopReplays(t *testing.T) {
	b, err := runtime.Bind(helloAgent, helloLib())
	if err != nil {
		t.Fatal(err)
	}
	var runs [2][]*runtime.Request
	for i := range runs {
		rec := runtime.ModelFunc(func(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
			cp := *req
			cp.Messages = append([]runtime.Message(nil), req.Messages...)
			runs[i] = append(runs[i], &cp)
			return nil, nil
		})
		model := runtimetest.NewScriptedModel(script()...)
		both := runtime.ModelFunc(func(ctx context.Context, req *runtime.Request) (*runtime.Completion, error) {
			rec(ctx, req)
			return model.Complete(ctx, req)
		})
		if _, err := driveLoop(t, b, both, "hi", runtime.RunOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff(runs[0], runs[1]); d != "" {
		t.Errorf("a second drive sent different requests:\n%s", d)
	}
}

func TestLoopIterationLimit(t *testing.T) {
	agent := helloAgent
	agent.MaxIterations = 5
	l, err := runtime.NewLoop(agent, "hi", nil, runtime.RunOptions{MaxIterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if l.Limit() != 1 {
		t.Fatalf("Limit = %d, want the option's 1 over the agent's 5", l.Limit())
	}
	if _, err := l.Next(); err != nil {
		t.Fatal(err)
	}
	turn, err := l.Receive(&runtime.Completion{Message: runtime.Message{ToolCalls: []runtime.ToolCall{{Name: "sayHello", Arguments: "{}"}}}})
	if err != nil || turn.Done || len(turn.Run) != 1 {
		t.Fatalf("turn = %+v, %v", turn, err)
	}
	if _, err := l.Next(); err == nil || !strings.Contains(err.Error(), "Record") {
		t.Fatalf("Next before Record: err = %v, want a misuse error naming Record", err)
	}
	if err := l.Record(nil); err == nil {
		t.Fatal("Record with no results for one call: no error")
	}
	if err := l.Record([]runtime.Invocation{{CallID: "other", Tool: "sayHello"}}); err == nil {
		t.Fatal("Record answering another call: no error")
	}
	if err := l.Record([]runtime.Invocation{{CallID: turn.Run[0].ID, Tool: "sayHello", Result: "Hello"}}); err != nil {
		t.Fatal(err)
	}
	_, err = l.Next()
	var lim *runtime.IterationLimitError
	if !errors.As(err, &lim) || lim.Limit != 1 {
		t.Fatalf("Next after the last iteration: err = %v, want *IterationLimitError{Limit: 1}", err)
	}
	if got := len(l.Response().Conversation.Messages); got != 3 {
		t.Errorf("conversation has %d messages, want user, assistant, tool", got)
	}
}

func TestLoopRejects(t *testing.T) {
	if _, err := runtime.NewLoop(helloAgent, "  ", nil, runtime.RunOptions{}); err == nil {
		t.Error("NewLoop with blank input: no error")
	}
	l, err := runtime.NewLoop(helloAgent, "hi", nil, runtime.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Receive(nil); err == nil {
		t.Error("Receive(nil): no error")
	}
	if err := l.Record(nil); err == nil {
		t.Error("Record with nothing pending: no error")
	}
}

// TestLoopResumesFromJSON: a run's Response taken between turns, through
// JSON and ResumeLoop (Temporal's continue-as-new), ends as the run that
// never stopped, tool errors and their kinds included.
func TestLoopResumesFromJSON(t *testing.T) {
	b, want := driveScript(t, "hi")

	model := runtimetest.NewScriptedModel(script()...)
	l, err := runtime.NewLoop(b.Agent, "hi", nil, scriptOptions)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := l.Next()
	comp, _ := model.Complete(context.Background(), req)
	turn, _ := l.Receive(comp)
	var invs []runtime.Invocation
	for _, inv := range want.Invocations[:len(turn.Run)] {
		invs = append(invs, inv)
	}
	if err := l.Record(invs); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(l.Response())
	if err != nil {
		t.Fatal(err)
	}
	var carried runtime.Response
	if err := json.Unmarshal(data, &carried); err != nil {
		t.Fatal(err)
	}
	l2, err := runtime.ResumeLoop(b.Agent, &carried, scriptOptions, nil)
	if err != nil {
		t.Fatal(err)
	}
	req, err = l2.Next()
	if err != nil {
		t.Fatal(err)
	}
	comp, _ = model.Complete(context.Background(), req)
	if turn, err := l2.Receive(comp); err != nil || !turn.Done {
		t.Fatalf("resumed turn = %+v, %v", turn, err)
	}
	if d := cmp.Diff(want, l2.Response(), runtimetest.ResponseOptions); d != "" {
		t.Errorf("resumed run differs (-uninterrupted +resumed):\n%s", d)
	}
	if _, err := runtime.ResumeLoop(b.Agent, &runtime.Response{}, scriptOptions, nil); err == nil {
		t.Error("ResumeLoop with no conversation: no error")
	}
}
