package durable_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/temporal/durable"
)

// The seed's sayHello, as runtimetest declares it for every test.
var helloSpec = runtimetest.HelloSpec()

var helloAgent = runtime.Agent{
	Name:        "hello_world_agent",
	Model:       "OpenAI/gpt-4o-mini",
	Instruction: "You are a friendly assistant.",
	Tools:       []runtime.ToolSpecification{helloSpec},
}

// greeter answers "Hello, NAME!" and counts its runs; it fails for the
// name "fail".
func greeter(runs *atomic.Int32) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		runs.Add(1)
		var a struct{ PersonName string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if a.PersonName == "fail" {
			return nil, errors.New("no greeting for fail")
		}
		return fmt.Sprintf("Hello, %s!", a.PersonName), nil
	}
}

func bound(t *testing.T, runs *atomic.Int32) *runtime.BoundAgent {
	t.Helper()
	b, err := runtime.Bind(helloAgent, runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: greeter(runs)}))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// script is the runtime's Loop tests' script with one more call, which
// greeter fails.
func script() []runtimetest.Step {
	return runtimetest.MixedHelloCalls(runtimetest.Call("sayHello", `{"personName":"fail"}`))
}

type env struct {
	*testsuite.TestWorkflowEnvironment
	worker *durable.Worker
}

func newEnv(t *testing.T, cfg durable.Config) env {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	s.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	e := s.NewTestWorkflowEnvironment()
	// The environment gives up on a workflow idle for 3 s of wall clock by
	// default, which a loaded 2-core machine can reach while an activity
	// runs (the known flake); a minute still ends a hung test.
	e.SetTestTimeout(time.Minute)
	// Likewise a workflow task counts as deadlocked after 1 s of wall
	// clock by default, which a starved test process reaches while make
	// test runs the main module's tests beside these.
	e.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
	w, err := durable.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.Register(e)
	return env{e, w}
}

// response is the finished workflow's Response; the test stops if the
// workflow failed.
func (e env) response(t *testing.T) runtime.Response {
	t.Helper()
	if err := e.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var got runtime.Response
	if err := e.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	return got
}

func modelFor(m runtime.Model) func(runtime.Agent) (runtime.Model, error) {
	return func(runtime.Agent) (runtime.Model, error) { return m, nil }
}

// TestWorkflowEqualsRun: the workflow, with the model and tools as
// activities, gives the Response runtime.Run gives: unknown tools,
// invalid arguments, tool errors and refused calls fed back alike.
func TestWorkflowEqualsRun(t *testing.T) {
	var runs atomic.Int32
	want, err := bound(t, &runs).Run(context.Background(), runtimetest.NewScriptedModel(script()...), "hi, I am Alice", nil,
		runtime.WithConcurrency(1), runtime.WithMaxToolCalls(4))
	if err != nil {
		t.Fatal(err)
	}
	runs.Store(0)
	e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{bound(t, &runs)}, Model: modelFor(runtimetest.NewScriptedModel(script()...))})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: helloAgent.Name, Input: "hi, I am Alice", MaxToolCalls: 4})
	if !e.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	got := e.response(t)
	if d := cmp.Diff(*want, got, runtimetest.ResponseOptions); d != "" {
		t.Errorf("workflow's Response differs from Run's (-Run +workflow):\n%s", d)
	}
	kinds := []runtime.ToolCallErrorKind{"", runtime.UnknownTool, runtime.InvalidArguments, runtime.ToolFailed, runtime.TooManyCalls}
	for i, inv := range got.Invocations {
		var kind runtime.ToolCallErrorKind
		var tce *runtime.ToolCallError
		if errors.As(inv.Err, &tce) {
			kind = tce.Kind
		}
		if kind != kinds[i] {
			t.Errorf("invocation %d: kind %q, want %q", i, kind, kinds[i])
		}
	}
	// Only the two valid calls within the limit ran: Alice and "fail".
	if n := runs.Load(); n != 2 {
		t.Errorf("the tool ran %d times, want 2", n)
	}
}

func TestWorkflowIterationLimit(t *testing.T) {
	var runs atomic.Int32
	loop := runtimetest.CallTools(runtimetest.Call("sayHello", `{}`))
	e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{bound(t, &runs)}, Model: modelFor(runtimetest.NewScriptedModel(loop, loop, loop))})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: helloAgent.Name, Input: "hi", MaxIterations: 2})
	err := e.GetWorkflowError()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != string(durable.ErrIterationLimit) {
		t.Fatalf("err = %v, want an application error of type %s", err, durable.ErrIterationLimit)
	}
	var partial runtime.Response
	if err := app.Details(&partial); err != nil {
		t.Fatal(err)
	}
	if partial.Iterations != 2 || len(partial.Invocations) != 2 {
		t.Errorf("partial response: %d iterations, %d invocations; want 2 and 2", partial.Iterations, len(partial.Invocations))
	}
}

func TestWorkflowUnknownAgent(t *testing.T) {
	var runs atomic.Int32
	e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{bound(t, &runs)}, Model: modelFor(runtimetest.NewScriptedModel())})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: "nobody", Input: "hi"})
	if err := e.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), `no agent "nobody"`) {
		t.Fatalf("err = %v, want one naming the unknown agent", err)
	}
	// What Result returns is an error errors.Is finds the type in.
	_, err := durable.Result(context.Background(), failedRun{err: e.GetWorkflowError()})
	if !errors.Is(err, durable.ErrUnknownAgent) || errors.Is(err, durable.ErrAPI) {
		t.Errorf("Result: %v; errors.Is ErrUnknownAgent %v, ErrAPI %v", err, errors.Is(err, durable.ErrUnknownAgent), errors.Is(err, durable.ErrAPI))
	}
}

// failedRun is a run that ended with err.
type failedRun struct {
	client.WorkflowRun
	err error
}

func (r failedRun) Get(context.Context, any) error { return r.err }

// TestModelActivityRetries: a retryable provider error is retried by
// Temporal's policy; one that retrying cannot fix fails the run at once.
func TestModelActivityRetries(t *testing.T) {
	var runs atomic.Int32
	retry := &temporal.RetryPolicy{InitialInterval: time.Millisecond, MaximumAttempts: 5}
	overloaded := &runtime.APIError{Provider: "openai", StatusCode: 529, Message: "overloaded", Retryable: true}
	m := runtimetest.NewScriptedModel(runtimetest.Fail(overloaded), runtimetest.Fail(overloaded), runtimetest.Say("done"))
	e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{bound(t, &runs)}, Model: modelFor(m), ModelRetry: retry})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: helloAgent.Name, Input: "hi"})
	if err := e.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Requests()); n != 3 {
		t.Errorf("model asked %d times, want 3 (two retries)", n)
	}

	badKey := &runtime.APIError{Provider: "openai", StatusCode: 401, Message: "bad key"}
	m = runtimetest.NewScriptedModel(runtimetest.Fail(badKey), runtimetest.Say("never"))
	e = newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{bound(t, &runs)}, Model: modelFor(m), ModelRetry: retry})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: helloAgent.Name, Input: "hi"})
	if err := e.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), "bad key") {
		t.Fatalf("err = %v, want the provider's error", err)
	}
	if n := len(m.Requests()); n != 1 {
		t.Errorf("model asked %d times after a 401, want 1 (not retried)", n)
	}
}

// TestToolActivityRetriedWithSameKey: a tool activity that does not
// finish is retried, with the same idempotency key.
func TestToolActivityRetriedWithSameKey(t *testing.T) {
	var keys []string
	var attempts atomic.Int32
	flaky := runtime.Tool{Spec: helloSpec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		keys = append(keys, durable.IdempotencyKey(ctx))
		if attempts.Add(1) == 1 {
			panic("worker lost") // stands in for a crash: see below
		}
		return "Hello!", nil
	}}
	b, err := runtime.Bind(helloAgent, runtime.NewToolLibrary(flaky))
	if err != nil {
		t.Fatal(err)
	}
	m := runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("sayHello", `{}`)), runtimetest.Say("done"))
	e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{b}, Model: modelFor(m)})
	// A panicking tool is a tool error fed back (as in runtime.Run), not a
	// retry; a crashed activity is simulated by failing the first attempt.
	var calls atomic.Int32
	e.OnActivity(durable.ActivityCallTool, mockAny, mockAny).Return(
		func(ctx context.Context, in durable.ToolInput) (durable.ToolOutput, error) {
			if calls.Add(1) == 1 {
				return durable.ToolOutput{}, errors.New("activity lost with its worker")
			}
			return e.worker.CallTool(ctx, in)
		})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: helloAgent.Name, Input: "hi"})
	got := e.response(t)
	if calls.Load() != 2 {
		t.Errorf("tool activity attempted %d times, want 2", calls.Load())
	}
	// The tool ran once (the second attempt) and panicked: that is fed
	// back as a tool error, with the key set.
	if len(keys) != 1 || !strings.HasSuffix(keys[0], "/call_1") || !strings.HasPrefix(keys[0], "default-test-workflow-id") {
		t.Errorf("idempotency keys = %q, want one WORKFLOW/call_1", keys)
	}
	var tce *runtime.ToolCallError
	if len(got.Invocations) != 1 || !errors.As(got.Invocations[0].Err, &tce) || tce.Kind != runtime.ToolPanicked {
		t.Errorf("invocations = %+v, want one panicked call fed back", got.Invocations)
	}
}

// TestContinueAsNew: past the history bound the run continues as new with
// its state between turns, and the continued run finishes it.
func TestContinueAsNew(t *testing.T) {
	var runs atomic.Int32
	steps := script()
	m := runtimetest.NewScriptedModel(steps...)
	cfg := durable.Config{Agents: []*runtime.BoundAgent{bound(t, &runs)}, Model: modelFor(m), ContinueAsNewTurns: 1}
	e := newEnv(t, cfg)
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: helloAgent.Name, Input: "hi, I am Alice", MaxToolCalls: 4})
	var can *workflow.ContinueAsNewError
	if err := e.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("err = %v, want continue-as-new", err)
	}
	var next durable.Input
	if err := decodeInput(can, &next); err != nil {
		t.Fatal(err)
	}
	if next.Resume == nil || next.Resume.Iterations != 1 || len(next.Resume.Invocations) != 5 {
		t.Fatalf("carried state = %+v, want the first turn", next.Resume)
	}
	cfg.ContinueAsNewTurns = 0
	e2 := newEnv(t, cfg)
	e2.ExecuteWorkflow(durable.WorkflowName, next)
	got := e2.response(t)
	want, err := bound(t, &runs).Run(context.Background(), runtimetest.NewScriptedModel(script()...), "hi, I am Alice", nil,
		runtime.WithConcurrency(1), runtime.WithMaxToolCalls(4))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(*want, got, runtimetest.ResponseOptions); d != "" {
		t.Errorf("continued run differs from one run (-Run +continued):\n%s", d)
	}
}

var mockAny = mock.Anything

func decodeInput(can *workflow.ContinueAsNewError, v any) error {
	return converter.GetDefaultDataConverter().FromPayloads(can.Input, v)
}

// typed is a typed agent (docs/language.md §2.6) of these tests: an OpenAI
// agent with one tool, the input as its message, and a value of the
// schema output, named outputName, as its answer.
func typed(name, instruction string, tool runtime.ToolSpecification, outputName, output string) runtime.Agent {
	return runtime.Agent{Name: name, Model: "OpenAI/gpt-4o-mini", Instruction: instruction, Tools: []runtime.ToolSpecification{tool},
		Signature: &runtime.Signature{Message: "input", Output: json.RawMessage(output), OutputName: outputName}}
}

// typedAgent greets with hello's tool, and answers with a Greeting. The
// worker process's is e2e_test.go's e2eTyped.
var typedAgent = typed("typed_greeter", "Greet, and say how warmly.", helloSpec, "Greeting",
	`{"type":"object","properties":{"greeting":{"type":"string"},"warmth":{"type":"integer","minimum":1,"maximum":5,"default":3}},"required":["greeting"],"additionalProperties":false}`)

func typedScript() []runtimetest.Step {
	return []runtimetest.Step{
		runtimetest.CallTools(runtimetest.Call("sayHello", `{"personName":"Alice"}`)),
		runtimetest.Say(`{"greeting":"Hello, Alice!","warmth":9}`),
		runtimetest.Say(`{"greeting":"Hello, Alice!"}`),
	}
}

// TestWorkflowTyped: the workflow runs a typed agent as Run does, the
// repair turn included, and returns the typed value; a spent budget is a
// non-retryable ErrOutput carrying the partial Response.
func TestWorkflowTyped(t *testing.T) {
	var runs atomic.Int32
	b, err := runtime.Bind(typedAgent, runtime.NewToolLibrary(runtime.Tool{Spec: helloSpec, Func: greeter(&runs)}))
	if err != nil {
		t.Fatal(err)
	}
	want, err := b.Run(context.Background(), runtimetest.NewScriptedModel(typedScript()...), "hi, I am Alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{b}, Model: modelFor(runtimetest.NewScriptedModel(typedScript()...))})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: typedAgent.Name, Input: "hi, I am Alice"})
	got := e.response(t)
	if d := cmp.Diff(*want, got, runtimetest.ResponseOptions); d != "" {
		t.Errorf("workflow's Response differs from Run's (-Run +workflow):\n%s", d)
	}
	if string(got.Value) != `{"greeting":"Hello, Alice!","warmth":3}` || got.Repairs != 1 {
		t.Errorf("value %s after %d repairs", got.Value, got.Repairs)
	}

	spent := runtimetest.NewScriptedModel(runtimetest.Say(`{}`), runtimetest.Say(`{"warmth":2}`))
	e = newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{b}, Model: modelFor(spent)})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: typedAgent.Name, Input: "hi"})
	var app *temporal.ApplicationError
	if err := e.GetWorkflowError(); !errors.As(err, &app) || app.Type() != string(durable.ErrOutput) || !app.NonRetryable() ||
		!strings.Contains(err.Error(), "the answer is not a Greeting after 1 repair turn") {
		t.Fatalf("spent: %v", err)
	}
	var partial runtime.Response
	if err := app.Details(&partial); err != nil || partial.Repairs != 1 || partial.Iterations != 2 {
		t.Errorf("partial response %+v (%v)", partial, err)
	}
}

// TestPayloadLimit: a model answer over the payload limit fails the run
// at once, not retried, naming the limit; before, the server refused the
// activity's result and the model was asked again for ever (issue 35.2).
// A tool result over it is a tool error the model is told.
func TestPayloadLimit(t *testing.T) {
	var runs atomic.Int32
	retry := &temporal.RetryPolicy{InitialInterval: time.Millisecond, MaximumAttempts: 5}
	big := strings.Repeat("x", 4096)
	m := runtimetest.NewScriptedModel(runtimetest.Say(big), runtimetest.Say(big), runtimetest.Say("small"))
	e := newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{bound(t, &runs)}, Model: modelFor(m), ModelRetry: retry, MaxPayloadBytes: 2048})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: helloAgent.Name, Input: "hi"})
	err := e.GetWorkflowError()
	if err == nil || !strings.Contains(err.Error(), "over the 2048-byte limit of a Temporal payload (durable.Config.MaxPayloadBytes)") {
		t.Fatalf("err = %v, want the payload limit named", err)
	}
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != string(durable.ErrPayloadTooLarge) {
		t.Errorf("err = %v, want a %s", err, durable.ErrPayloadTooLarge)
	}
	if n := len(m.Requests()); n != 1 {
		t.Errorf("model asked %d times, want 1 (not retried)", n)
	}

	tool := runtime.Tool{Spec: helloSpec, Func: func(context.Context, json.RawMessage) (any, error) { return big, nil }}
	b, berr := runtime.Bind(helloAgent, runtime.NewToolLibrary(tool))
	if berr != nil {
		t.Fatal(berr)
	}
	m = runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("sayHello", `{"personName":"Ada"}`)), runtimetest.Say("done"))
	e = newEnv(t, durable.Config{Agents: []*runtime.BoundAgent{b}, Model: modelFor(m), MaxPayloadBytes: 2048})
	e.ExecuteWorkflow(durable.WorkflowName, durable.Input{Agent: helloAgent.Name, Input: "hi"})
	var resp runtime.Response
	if err := e.GetWorkflowResult(&resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Invocations) != 1 || resp.Invocations[0].Err == nil || !strings.Contains(resp.Invocations[0].Err.Error(), "the tool's result is") {
		t.Errorf("invocations %+v, want the tool's result refused as too large", resp.Invocations)
	}
}
