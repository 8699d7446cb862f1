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

// e2eTyped is the worker process's typed agent (workflow_test.go's
// typed): a note, then a Receipt.
var e2eTyped = typed("durable_typed_agent", "Take a note and say what was noted.", noteSpec, "Receipt",
	`{"type":"object","properties":{"noted":{"type":"string"},"copies":{"type":"integer","minimum":1,"default":1}},"required":["noted"],"additionalProperties":false}`)

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
	// The agents of TestWorkerCrash, the typed run's, and
	// TestWorkerCrashInChild's (e2e_agents_test.go).
	agents, err := bindAll(dir, e2eAgent, e2eTyped, deskAgent)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	w, err := durable.New(durable.Config{
		Agents:        agents,
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

// e2eServers is what an end-to-end test runs its worker processes
// against: a Temporal server started in the test, a fake OpenAI server
// answering by a policy, and the directory the tools log to.
type e2eServers struct {
	t        *testing.T
	c        client.Client
	addr, ns string
	fake     *runtimetest.ProviderServer
	dir      string
}

func newE2E(t *testing.T, policy runtimetest.Policy) *e2eServers {
	t.Helper()
	start := time.Now()
	ts := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(client.Options{Logger: quietLogger()}))
	t.Logf("Temporal server started in %v", time.Since(start).Round(time.Millisecond))
	return &e2eServers{t: t, c: ts.GetDefaultClient(), addr: ts.GetFrontendHostPort(), ns: ts.GetDefaultNamespace(),
		fake: runtimetest.NewProviderServer(t, runtimetest.OpenAI, policy), dir: t.TempDir()}
}

// startWorker starts a worker process; it is killed when the test ends.
func (e *e2eServers) startWorker() *exec.Cmd {
	e.t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+strings.Join([]string{e.addr, e.ns, e.fake.URL, e.dir}, "|"))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// start starts the workflow id on the task queue the workers serve.
func (e *e2eServers) start(id string, in durable.Input) client.WorkflowRun {
	e.t.Helper()
	run, err := durable.Start(context.Background(), e.c, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, in)
	if err != nil {
		e.t.Fatal(err)
	}
	return run
}

// result waits for the run's Response, as a client that attaches to it
// by its ID does.
func (e *e2eServers) result(run client.WorkflowRun) *runtime.Response {
	e.t.Helper()
	got, err := durable.Result(context.Background(), durable.Attach(e.c, run.GetID()))
	if err != nil {
		e.t.Fatal(err)
	}
	return got
}

// runWithCrash runs in as the workflow id with a worker killed mid-tool:
// dir/hold keeps slow running; once the slow of the workflow toolsOf
// (id's own or a child's) has started and its note's activity completed,
// beforeKill (if any) looks at the run, the worker is killed (SIGKILL),
// slow is let go, and a new worker finishes the run.
func (e *e2eServers) runWithCrash(id string, in durable.Input, toolsOf string, beforeKill func(client.WorkflowRun)) *runtime.Response {
	e.t.Helper()
	t := e.t
	if err := os.WriteFile(filepath.Join(e.dir, "hold"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w1 := e.startWorker()
	run := e.start(id, in)
	waitFor(t, "the slow of "+toolsOf+" to start and its note's activity to complete", func() bool {
		if countLines(t, e.dir, "start slow "+toolsOf+"/call_slow") == 0 {
			return false
		}
		d, err := e.c.DescribeWorkflowExecution(context.Background(), toolsOf, "")
		if err != nil {
			return false
		}
		pending := d.GetPendingActivities()
		return len(pending) == 1 && pending[0].GetActivityType().GetName() == durable.ActivityCallTool &&
			pending[0].GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED
	})
	if beforeKill != nil {
		beforeKill(run)
	}
	if err := w1.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w1.Wait()
	t.Logf("worker 1 killed with the slow of %s running; log: %q", toolsOf, readLog(t, e.dir))
	os.Remove(filepath.Join(e.dir, "hold"))
	e.startWorker()
	return e.result(run)
}

// checkRanOnce checks the tool log of runWithCrash for the tools of the
// workflow toolsOf: note completed before the crash and ran once; slow
// started twice (the killed attempt and the retry) and finished once,
// both times with the same idempotency key.
func (e *e2eServers) checkRanOnce(toolsOf string) {
	e.t.Helper()
	if n := countLines(e.t, e.dir, "done note "+toolsOf+"/call_note"); n != 1 {
		e.t.Errorf("note ran %d times, want exactly 1", n)
	}
	if n := countLines(e.t, e.dir, "start slow "+toolsOf+"/call_slow"); n != 2 {
		e.t.Errorf("slow started %d times with the same key, want 2 (killed, retried)", n)
	}
	if n := countLines(e.t, e.dir, "done slow "+toolsOf+"/call_slow"); n != 1 {
		e.t.Errorf("slow finished %d times, want 1", n)
	}
}

// inProcess is runtime.Run's Response for agent and input, in process
// and without a crash, against its own fake server answering by policy.
func inProcess(t *testing.T, policy runtimetest.Policy, agent runtime.Agent, input string) *runtime.Response {
	t.Helper()
	model, err := e2eModel(runtimetest.NewProviderServer(t, runtimetest.OpenAI, policy).URL)
	if err != nil {
		t.Fatal(err)
	}
	want, err := runtime.Run(context.Background(), model, agent, e2eTools(t.TempDir()), input, nil)
	if err != nil {
		t.Fatal(err)
	}
	return want
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
	want := inProcess(t, e2ePolicy, e2eAgent, "take a note")
	e := newE2E(t, e2ePolicy)
	got := e.runWithCrash("e2e-crash", durable.Input{Agent: e2eAgent.Name, Input: "take a note"}, "e2e-crash", nil)

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
	e.checkRanOnce("e2e-crash")
	if reqs := len(e.fake.Turns()); reqs != 2 {
		t.Errorf("the provider saw %d requests, want 2 (the first is not repeated after the crash)", reqs)
	}
}

// TestTypedE2E: a typed agent through a real Temporal server and a worker
// process: the workflow makes the repair turn and returns the typed
// value, as runtime.Run does in process.
func TestTypedE2E(t *testing.T) {
	want := inProcess(t, e2ePolicy, e2eTyped, "note the milk")
	e := newE2E(t, e2ePolicy)
	e.startWorker()
	got := e.result(e.start("e2e-typed", durable.Input{Agent: e2eTyped.Name, Input: "note the milk"}))
	if string(got.Value) != `{"copies":1,"noted":"remember the milk"}` || string(got.Value) != string(want.Value) {
		t.Errorf("value %s, want %s (in process)", got.Value, want.Value)
	}
	if got.Repairs != 1 || got.OutputMode != "native" {
		t.Errorf("%d repairs in mode %q, want 1 in native", got.Repairs, got.OutputMode)
	}
	if reqs := len(e.fake.Turns()); reqs != 3 {
		t.Errorf("the provider saw %d requests, want 3 (tool call, invalid answer, repaired answer)", reqs)
	}
}
