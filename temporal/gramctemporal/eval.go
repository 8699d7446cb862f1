package gramctemporal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/gramc-dev/gramc/cli"
	"github.com/gramc-dev/gramc/eval"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/temporal/durable"
	"github.com/gramc-dev/gramc/temporal/internal/command"
)

// gramc-temporal eval (issue 46.8) is gramc eval — the same flags, the
// same tests, variants and report (cli.EvalRemote) — with every run a
// workflow, EvalWorkflowName, on whatever eval workers poll the task
// queue (gramc-temporal eval-worker), so an eval spreads over machines.
// A worker rebuilds the eval from the eval's own arguments, in its own
// working directory, with gramc eval's code (cli.EvalWorker), so a run
// made there is the run gramc eval makes here: for the same recorded
// runs the report is the same bytes. A run's workflow ID is the eval's
// and the run's: a finished run is kept by the server whatever happens
// to a worker, and an eval started again with the same --eval-id takes
// the runs already made instead of making them again.

// The eval's workflow and activity names.
const (
	EvalWorkflowName = "gramc.EvalRun"
	EvalActivityName = "gramc.EvalRunActivity"
)

// DefaultEvalHeartbeat is how soon a run whose eval worker died is made
// again by another (gramc-temporal eval --heartbeat).
const DefaultEvalHeartbeat = 10 * time.Second

// EvalRunInput is one run of an eval: gramc eval's arguments, the
// directory they are read in, the run, and how often its worker must
// show it is alive.
type EvalRunInput struct {
	Args      []string      `json:"args"`
	Dir       string        `json:"dir"`
	Job       eval.Job      `json:"job"`
	Heartbeat time.Duration `json:"heartbeat"`
}

// EvalWorkflow makes one run: an activity on an eval worker, made again
// elsewhere when its worker stops heartbeating; its record is the
// workflow's result.
func EvalWorkflow(ctx workflow.Context, in EvalRunInput) (eval.RunRecord, error) {
	hb := in.Heartbeat
	if hb <= 0 {
		hb = DefaultEvalHeartbeat
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Hour,
		HeartbeatTimeout:    hb,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5},
	})
	var rec eval.RunRecord
	err := workflow.ExecuteActivity(ctx, EvalActivityName, in).Get(ctx, &rec)
	return rec, err
}

// evalActivities keep, per eval, the eval an eval worker built from its
// arguments (once: an eval's runs share its agents and clients).
type evalActivities struct {
	goTools map[string]runtime.ToolFunc
	mu      sync.Mutex
	evals   map[string]*builtEval
}

type builtEval struct {
	once  sync.Once
	w     *eval.Worker
	close func() // ends the tool commands the eval keeps
	err   error
}

// Run is EvalActivityName: run in.Job of the eval in.Args, heartbeating
// while it goes.
func (a *evalActivities) Run(ctx context.Context, in EvalRunInput) (eval.RunRecord, error) {
	if dir, err := os.Getwd(); err != nil || dir != in.Dir {
		return eval.RunRecord{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf(
			"this eval worker runs in %s, the eval's files are read in %s: start gramc-temporal eval-worker there", dir, in.Dir), "gramc.EvalDirectory", err)
	}
	w, err := a.eval(in.Args)
	if err != nil {
		return eval.RunRecord{}, temporal.NewNonRetryableApplicationError(err.Error(), "gramc.EvalSetup", nil)
	}
	defer durable.Heartbeat(ctx)()
	return w.RunJob(ctx, in.Job)
}

func (a *evalActivities) eval(args []string) (*eval.Worker, error) {
	key := strings.Join(args, "\x00")
	a.mu.Lock()
	b, ok := a.evals[key]
	if !ok {
		b = &builtEval{}
		a.evals[key] = b
	}
	a.mu.Unlock()
	b.once.Do(func() { b.w, b.close, b.err = cli.EvalWorker(args, a.goTools) })
	return b.w, b.err
}

// close ends the tool commands of every eval the worker built.
func (a *evalActivities) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, b := range a.evals {
		if b.close != nil {
			b.close()
		}
	}
}

// registerEval registers the eval's workflow and activity on w; close
// (defer it) ends what the evals it built keep running.
func registerEval(w worker.Registry, goTools map[string]runtime.ToolFunc) (close func()) {
	acts := &evalActivities{goTools: goTools, evals: map[string]*builtEval{}}
	w.RegisterWorkflowWithOptions(EvalWorkflow, workflow.RegisterOptions{Name: EvalWorkflowName})
	w.RegisterActivityWithOptions(acts.Run, activity.RegisterOptions{Name: EvalActivityName})
	return acts.close
}

func evalWorkerCmd(stderr io.Writer, goTools map[string]runtime.ToolFunc) *cobra.Command {
	var conn connection
	cmd := &cobra.Command{
		Use:   "eval-worker [flags]",
		Short: "Make the runs of gramc-temporal eval until interrupted (start it where the eval's files are)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := conn.dial(nil)
			if err != nil {
				return err
			}
			defer c.Close()
			wk := worker.New(c, conn.taskQueue, worker.Options{})
			defer registerEval(wk, goTools)()
			dir, _ := os.Getwd()
			fmt.Fprintf(stderr, "gramc-temporal: making eval runs in %s on task queue %s at %s (namespace %s)\n", dir, conn.taskQueue, conn.address, conn.namespace)
			stop := make(chan any)
			go func() { <-cmd.Context().Done(); close(stop) }()
			return wk.Run(stop)
		},
	}
	conn.flags(cmd, DefaultEvalTaskQueue)
	return cmd
}

// evalFlags are gramc-temporal eval's own flags; every other argument is
// gramc eval's.
var evalFlags = map[string]bool{"--address": true, "--namespace": true, "--task-queue": true, "--eval-id": true, "--heartbeat": true}

// splitEvalArgs takes gramc-temporal eval's own flags (--flag VALUE or
// --flag=VALUE) out of args; the rest are gramc eval's.
func splitEvalArgs(args []string) (own map[string]string, rest []string, err error) {
	own = map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		if !evalFlags[name] {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, nil, command.UsageError{Err: fmt.Errorf("%s needs a value", name)}
			}
			i++
			value = args[i]
		}
		own[name] = value
	}
	return own, rest, nil
}

func evalCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "eval [--eval-id ID] [--heartbeat D] [--address HOST:PORT] [--namespace NS] [--task-queue Q] [gramc eval's flags and paths]",
		Short: "gramc eval with every run a workflow on the eval workers of a task queue",
		Long: `Eval is gramc eval (its flags, paths and report, docs/eval.md) with every
run made by an eval worker (gramc-temporal eval-worker, started where the
eval's files are: the same directory) on the task queue: --concurrency
runs at once across all of them. A run's workflow ID is --eval-id's (a new
one by default, printed) and the run's, so the server keeps every finished
run: a worker that dies loses only the run it was making, which another
makes again (--heartbeat, default 10s), and the same eval started again
with the same --eval-id takes the finished runs instead of making them
again. For the same recorded runs (--record, then --replay) the report is
the bytes gramc eval writes.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && (args[0] == "--help" || args[0] == "-h") {
				return cmd.Help()
			}
			own, rest, err := splitEvalArgs(args)
			if err != nil {
				return err
			}
			conn := connection{address: envOr(own["--address"], "TEMPORAL_ADDRESS", client.DefaultHostPort),
				namespace: envOr(own["--namespace"], "TEMPORAL_NAMESPACE", client.DefaultNamespace), taskQueue: own["--task-queue"]}
			if conn.taskQueue == "" {
				conn.taskQueue = DefaultEvalTaskQueue
			}
			hb := DefaultEvalHeartbeat
			if v, ok := own["--heartbeat"]; ok {
				if hb, err = time.ParseDuration(v); err != nil || hb <= 0 {
					return command.UsageError{Err: fmt.Errorf("--heartbeat %q: a positive duration (10s)", v)}
				}
			}
			id := own["--eval-id"]
			if id == "" {
				id = newEvalID()
				fmt.Fprintf(stderr, "gramc-temporal: eval %s (start it again with --eval-id %s to take its finished runs)\n", id, id)
			}
			dir, err := os.Getwd()
			if err != nil {
				return err
			}
			c, err := conn.dial(nil)
			if err != nil {
				return err
			}
			defer c.Close()
			code := cli.EvalRemote(rest, stdin, stdout, stderr, func(evalArgs []string) func(context.Context, eval.Job) (eval.RunRecord, error) {
				return func(ctx context.Context, j eval.Job) (eval.RunRecord, error) {
					return dispatchRun(ctx, c, conn.taskQueue, id, EvalRunInput{Args: evalArgs, Dir: dir, Job: j, Heartbeat: hb})
				}
			})
			if code != 0 {
				return command.ExitStatus(code)
			}
			return nil
		},
	}
}

// dispatchRun starts (or, when it was started before, attaches to) the
// workflow of one run and waits for its record.
func dispatchRun(ctx context.Context, c client.Client, queue, id string, in EvalRunInput) (eval.RunRecord, error) {
	wid := fmt.Sprintf("%s/%d/%d/%d", id, in.Job.Variant, in.Job.Test, in.Job.Run)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: wid, TaskQueue: queue,
		// A run that finished is not made again (its ID is refused, and
		// its record taken below); one that failed may be; one in progress
		// is attached to.
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, EvalWorkflowName, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case errors.As(err, &started):
		run = c.GetWorkflow(ctx, wid, "")
	case err != nil:
		return eval.RunRecord{}, err
	}
	var rec eval.RunRecord
	if err := run.Get(ctx, &rec); err != nil {
		var app *temporal.ApplicationError
		if errors.As(err, &app) {
			return eval.RunRecord{}, errors.New(app.Message())
		}
		return eval.RunRecord{}, err
	}
	return rec, nil
}

func newEvalID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "eval-" + time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b)
}

// envOr is flag, else the environment variable env's value, else def.
func envOr(flag, env, def string) string {
	if flag != "" {
		return flag
	}
	if v := os.Getenv(env); v != "" {
		return v
	}
	return def
}
