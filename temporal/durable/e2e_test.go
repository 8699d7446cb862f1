package durable_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/temporal/durable"
)

// The end-to-end test runs workers as processes of this test binary, so
// that one can be killed for real (SIGKILL, mid-tool) while the Temporal
// server, started in the test, keeps the run.
const workerEnv = "GRAMC_DURABLE_E2E_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		os.Exit(workerMain())
	}
	os.Exit(m.Run())
}

const taskQueue = "gramc-e2e"

var noteSpec = runtime.ToolSpecification{
	Name:        "note",
	Description: "Writes a note",
	Schema:      json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
}

var slowSpec = runtime.ToolSpecification{
	Name:        "slow",
	Description: "Takes its time",
	Schema:      json.RawMessage(`{"type":"object","properties":{"label":{"type":"string"}},"required":["label"],"additionalProperties":false}`),
}

var e2eAgent = runtime.Agent{
	Name:        "durable_agent",
	Model:       "OpenAI/gpt-4o-mini",
	Instruction: "Take notes slowly.",
	Tools:       []runtime.ToolSpecification{noteSpec, slowSpec},
}

// e2eTyped is a typed agent (LANGUAGE.md §2.5): a note, then a Receipt.
var e2eTyped = runtime.Agent{
	Name:        "durable_typed_agent",
	Model:       "OpenAI/gpt-4o-mini",
	Instruction: "Take a note and say what was noted.",
	Tools:       []runtime.ToolSpecification{noteSpec},
	Signature: &runtime.Signature{
		Message:    "input",
		Output:     json.RawMessage(`{"type":"object","properties":{"noted":{"type":"string"},"copies":{"type":"integer","minimum":1,"default":1}},"required":["noted"],"additionalProperties":false}`),
		OutputName: "Receipt",
	},
}

// e2ePolicy asks for both tools, then answers with their results. A typed
// agent's request (it asks for a structured output) is first answered
// with a value of the wrong type, and after the repair turn with one
// built from the tool results.
func e2ePolicy(t *runtimetest.Turn, n int) runtimetest.Reply {
	if t.Output != nil {
		for _, m := range t.Messages {
			if m.Role == runtime.RoleUser && strings.Contains(m.Content, "not a valid Receipt") {
				return runtimetest.Reply{Text: `{"noted":"remember the milk"}`}
			}
		}
		if t.Last().Role == runtime.RoleTool {
			return runtimetest.Reply{Text: `{"noted":"remember the milk","copies":0}`}
		}
		return runtimetest.ToolCallsReply(runtimetest.FakeCall{ID: "call_note", Name: "note", Arguments: `{"text":"remember the milk"}`})
	}
	if t.Last().Role == runtime.RoleTool {
		return runtimetest.Echo(t, n)
	}
	return runtimetest.ToolCallsReply(
		runtimetest.FakeCall{ID: "call_note", Name: "note", Arguments: `{"text":"remember the milk"}`},
		runtimetest.FakeCall{ID: "call_slow", Name: "slow", Arguments: `{"label":"report"}`},
	)
}

// e2eTools are the tools, logging each start and finish, with its
// idempotency key, to dir/log. slow blocks while dir/hold exists.
func e2eTools(dir string) *runtime.ToolLibrary {
	logf := func(format string, args ...any) {
		f, err := os.OpenFile(filepath.Join(dir, "log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			panic(err)
		}
		defer f.Close()
		fmt.Fprintf(f, format+"\n", args...)
	}
	note := func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ Text string }
		json.Unmarshal(args, &a)
		logf("done note %s", durable.IdempotencyKey(ctx))
		return "noted: " + a.Text, nil
	}
	slow := func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ Label string }
		json.Unmarshal(args, &a)
		logf("start slow %s", durable.IdempotencyKey(ctx))
		for {
			if _, err := os.Stat(filepath.Join(dir, "hold")); err != nil {
				break
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
		logf("done slow %s", durable.IdempotencyKey(ctx))
		return "slow " + a.Label + " done", nil
	}
	return runtime.NewToolLibrary(runtime.Tool{Spec: noteSpec, Func: note}, runtime.Tool{Spec: slowSpec, Func: slow})
}

func quietLogger() log.Logger { return log.NewStructuredLogger(slog.New(slog.DiscardHandler)) }

// workerMain is a worker process: GRAMC_DURABLE_E2E_WORKER=ADDR|NS|PROVIDER_URL|DIR.
func workerMain() int {
	parts := strings.Split(os.Getenv(workerEnv), "|")
	if len(parts) != 4 {
		fmt.Fprintln(os.Stderr, "worker: bad", workerEnv)
		return 2
	}
	addr, ns, url, dir := parts[0], parts[1], parts[2], parts[3]
	b, err := runtime.Bind(e2eAgent, e2eTools(dir))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	typed, err := runtime.Bind(e2eTyped, e2eTools(dir))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	w, err := durable.New(durable.Config{
		Agents:        []*runtime.BoundAgent{b, typed},
		Model:         func(runtime.Agent) (runtime.Model, error) { return e2eModel(url) },
		ToolHeartbeat: time.Second,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	c, err := client.Dial(client.Options{HostPort: addr, Namespace: ns, Logger: quietLogger()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	defer c.Close()
	wk := worker.New(c, taskQueue, worker.Options{})
	w.Register(wk)
	if err := wk.Run(worker.InterruptCh()); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	return 0
}

func e2eModel(url string) (runtime.Model, error) {
	return openai.New(clientopt.WithBaseURL(url), clientopt.WithAPIKey("sk-test"), clientopt.WithModel("gpt-4o-mini"), clientopt.WithMaxRetries(0))
}

func startWorker(t *testing.T, addr, ns, url, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+strings.Join([]string{addr, ns, url, dir}, "|"))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

func readLog(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(strings.ReplaceAll(string(data), "\n", " \n"))
}

func countLines(t *testing.T, dir, prefix string) int {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(dir, "log"))
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, prefix) {
			n++
		}
	}
	return n
}

// waitFor polls cond every 20 ms until it holds or the test's deadline
// nears (a bound on a wait, not a timing assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	if d, ok := t.Deadline(); ok && d.Before(deadline) {
		deadline = d.Add(-5 * time.Second)
	}
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWorkerCrash is the durability promise, against a real Temporal
// server: a worker is killed while a tool runs; a new worker finishes the
// run; every tool call whose activity completed ran exactly once; the
// answer equals that of a run without the crash.
func TestWorkerCrash(t *testing.T) {
	// The answer of a run without a crash, in process.
	refDir := t.TempDir()
	refModel, err := e2eModel(runtimetest.NewProviderServer(t, runtimetest.OpenAI, e2ePolicy).URL)
	if err != nil {
		t.Fatal(err)
	}
	want, err := runtime.Run(context.Background(), refModel, e2eAgent, e2eTools(refDir), "take a note", nil)
	if err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	ts := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(client.Options{Logger: quietLogger()}))
	t.Logf("Temporal server started in %v", time.Since(start).Round(time.Millisecond))
	c := ts.GetDefaultClient()
	addr, ns := ts.GetFrontendHostPort(), ts.GetDefaultNamespace()
	fake := runtimetest.NewProviderServer(t, runtimetest.OpenAI, e2ePolicy)

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hold"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w1 := startWorker(t, addr, ns, fake.URL, dir)

	ctx := context.Background()
	run, err := durable.Start(ctx, c, client.StartWorkflowOptions{ID: "e2e-crash", TaskQueue: taskQueue}, durable.Input{Agent: e2eAgent.Name, Input: "take a note"})
	if err != nil {
		t.Fatal(err)
	}
	// Kill the worker once slow has started and note's activity is
	// recorded as completed (only slow is pending).
	waitFor(t, "slow to start and note's activity to complete", func() bool {
		if countLines(t, dir, "start slow") == 0 {
			return false
		}
		d, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
		if err != nil {
			return false
		}
		pending := d.GetPendingActivities()
		return len(pending) == 1 && pending[0].GetActivityType().GetName() == durable.ActivityCallTool &&
			pending[0].GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED
	})
	if err := w1.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w1.Wait()
	t.Logf("worker 1 killed with slow running; log: %q", readLog(t, dir))
	os.Remove(filepath.Join(dir, "hold"))

	startWorker(t, addr, ns, fake.URL, dir)
	got, err := durable.Result(ctx, durable.Attach(c, run.GetID()))
	if err != nil {
		t.Fatal(err)
	}

	if got.Content != want.Content {
		t.Errorf("answer after the crash:\n%s\nwant (no crash):\n%s", got.Content, want.Content)
	}
	if len(got.Invocations) != len(want.Invocations) {
		t.Fatalf("%d invocations, want %d", len(got.Invocations), len(want.Invocations))
	}
	for i := range want.Invocations {
		if g, w := got.Invocations[i], want.Invocations[i]; g.Tool != w.Tool || g.Result != w.Result || g.Err != nil {
			t.Errorf("invocation %d = %s %q (%v), want %s %q", i, g.Tool, g.Result, g.Err, w.Tool, w.Result)
		}
	}
	// note completed before the crash: it ran once. slow started twice
	// (the killed attempt and the retry) and finished once, both with the
	// same idempotency key.
	if n := countLines(t, dir, "done note e2e-crash/call_note"); n != 1 {
		t.Errorf("note ran %d times, want exactly 1", n)
	}
	if n := countLines(t, dir, "start slow e2e-crash/call_slow"); n != 2 {
		t.Errorf("slow started %d times with the same key, want 2 (killed, retried)", n)
	}
	if n := countLines(t, dir, "done slow e2e-crash/call_slow"); n != 1 {
		t.Errorf("slow finished %d times, want 1", n)
	}
	if reqs := len(fake.Turns()); reqs != 2 {
		t.Errorf("the provider saw %d requests, want 2 (the first is not repeated after the crash)", reqs)
	}
}

// TestTypedE2E: a typed agent through a real Temporal server and a worker
// process: the workflow makes the repair turn and returns the typed
// value, as runtime.Run does in process.
func TestTypedE2E(t *testing.T) {
	refModel, err := e2eModel(runtimetest.NewProviderServer(t, runtimetest.OpenAI, e2ePolicy).URL)
	if err != nil {
		t.Fatal(err)
	}
	want, err := runtime.Run(context.Background(), refModel, e2eTyped, e2eTools(t.TempDir()), "note the milk", nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(client.Options{Logger: quietLogger()}))
	c := ts.GetDefaultClient()
	fake := runtimetest.NewProviderServer(t, runtimetest.OpenAI, e2ePolicy)
	startWorker(t, ts.GetFrontendHostPort(), ts.GetDefaultNamespace(), fake.URL, t.TempDir())
	ctx := context.Background()
	run, err := durable.Start(ctx, c, client.StartWorkflowOptions{ID: "e2e-typed", TaskQueue: taskQueue}, durable.Input{Agent: e2eTyped.Name, Input: "note the milk"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := durable.Result(ctx, durable.Attach(c, run.GetID()))
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Value) != `{"copies":1,"noted":"remember the milk"}` || string(got.Value) != string(want.Value) {
		t.Errorf("value %s, want %s (in process)", got.Value, want.Value)
	}
	if got.Repairs != 1 || got.OutputMode != "native" {
		t.Errorf("%d repairs in mode %q, want 1 in native", got.Repairs, got.OutputMode)
	}
	if reqs := len(fake.Turns()); reqs != 3 {
		t.Errorf("the provider saw %d requests, want 3 (tool call, invalid answer, repaired answer)", reqs)
	}
}
