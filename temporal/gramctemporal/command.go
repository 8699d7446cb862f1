// Package gramctemporal is the gramc-temporal command (cmd/gramc-temporal
// is its main): it runs gram agents durably on Temporal: a worker that
// serves the agents of gram packages and a starter that runs one and
// prints its answer. MainWithTools is the command with Go tools built in.
// It links the Temporal SDK, never the server (TestNoServerLinked): the
// development server is the command gramc-temporal-dev (package
// devserver), which takes five times the CPU time to build.
//
//	gramc-temporal worker [--address HOST:PORT] [--namespace NS] [--tool NAME=COMMAND]... [paths]
//	gramc-temporal run --agent NAME [--id ID] [paths] "input"
//
// Both export OpenTelemetry traces and metrics as gramc run does
// (runtime/otelexport): one trace per run, from the starter through the
// workflow, its activities and its child workflows (durable's
// TracingInterceptor). See docs/durable.md.
package gramctemporal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
	"github.com/gramc-dev/gramc/runtime/otelexport"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
	"github.com/gramc-dev/gramc/temporal/durable"
	"github.com/gramc-dev/gramc/temporal/internal/command"
)

// connection are the flags that reach a Temporal cluster.
type connection struct {
	address, namespace, taskQueue string
}

// The default task queues: the agents' workers poll one and the eval
// workers another, since a worker polls only for the workflows and
// activities it registers (a gramc.EvalRun on the agents' queue would be
// retried there, each time after a failed workflow task, until an eval
// worker took it).
const (
	DefaultTaskQueue     = "gramc"
	DefaultEvalTaskQueue = "gramc-eval"
)

// flags adds the connection's flags to cmd, queue the default task queue.
func (c *connection) flags(cmd *cobra.Command, queue string) {
	addr := os.Getenv("TEMPORAL_ADDRESS")
	if addr == "" {
		addr = client.DefaultHostPort
	}
	ns := os.Getenv("TEMPORAL_NAMESPACE")
	if ns == "" {
		ns = client.DefaultNamespace
	}
	cmd.Flags().StringVar(&c.address, "address", addr, "the Temporal frontend's HOST:PORT ($TEMPORAL_ADDRESS)")
	cmd.Flags().StringVar(&c.namespace, "namespace", ns, "the Temporal namespace ($TEMPORAL_NAMESPACE)")
	cmd.Flags().StringVar(&c.taskQueue, "task-queue", queue, "the task queue the workers poll")
}

// dial connects, with Temporal's tracing interceptor when tel exports
// traces.
func (c *connection) dial(tel *otelexport.Setup) (client.Client, error) {
	opts := client.Options{HostPort: c.address, Namespace: c.namespace, Logger: quietSDKLogger()}
	if tp := tel.TracerProvider(); tp != nil {
		ti, err := durable.TracingInterceptor(tp)
		if err != nil {
			return nil, err
		}
		opts.Interceptors = append(opts.Interceptors, ti)
	}
	cl, err := client.Dial(opts)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s (namespace %s): %w", c.address, c.namespace, err)
	}
	return cl, nil
}

// startTelemetry is otelexport.Start as gramc-temporal's commands start
// it (prog: "gramc-temporal worker"): an environment it cannot read is a
// usage error; stop flushes what is buffered (defer it).
func startTelemetry(ctx context.Context, stderr io.Writer, prog string) (*otelexport.Setup, func(), error) {
	version := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		version = bi.Main.Version
	}
	tel, stop, err := otelexport.Start(ctx, stderr, otelexport.Config{Prog: prog, Service: "gramc-temporal", Version: version})
	if err != nil {
		return nil, nil, command.UsageError{Err: fmt.Errorf("OpenTelemetry export: %w", err)}
	}
	return tel, stop, nil
}

// quietSDKLogger is the SDK's logger with nothing logged: the command says
// what matters itself.
func quietSDKLogger() log.Logger { return log.NewStructuredLogger(slog.New(slog.DiscardHandler)) }

// Main runs the command with args (without the program name) and returns
// its exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	return MainWithTools(nil, args, stdout, stderr)
}

// MainWithTools is Main with Go tools built in, by name: the worker binds
// an agent's tool to its Go function when no --tool names a command for
// it. A program of your own that calls it is gramc-temporal with your
// tools (docs/durable.md):
//
//	func main() {
//		tools := map[string]runtime.ToolFunc{"getWeather": getWeather}
//		os.Exit(gramctemporal.MainWithTools(tools, os.Args[1:], os.Stdout, os.Stderr))
//	}
func MainWithTools(tools map[string]runtime.ToolFunc, args []string, stdout, stderr io.Writer) int {
	root := &cobra.Command{
		Use:           "gramc-temporal",
		Short:         "Run gram agents durably on Temporal",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(workerCmd(stdout, stderr, tools), runCmd(stdout, stderr), devMovedCmd(),
		evalCmd(os.Stdin, stdout, stderr), evalWorkerCmd(stderr, tools))
	return command.Run(root, "gramc-temporal", args, stdout, stderr)
}

// devMovedCmd is gramc-temporal dev, which was the development server:
// it says where the server is now.
func devMovedCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "dev",
		Short:              "The development server is gramc-temporal-dev",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(*cobra.Command, []string) error {
			return command.UsageError{Err: errors.New("the development server is a command of its own: gramc-temporal-dev " +
				"(cd temporal && go build -o ../bin/gramc-temporal-dev ./cmd/gramc-temporal-dev; it links a whole " +
				"Temporal server, so it takes several minutes to build: docs/durable.md)")}
		},
	}
}

func workerCmd(stdout, stderr io.Writer, goTools map[string]runtime.ToolFunc) *cobra.Command {
	var conn connection
	var tools, agents []string
	var baseURL string
	var toolTimeout, heartbeat time.Duration
	cmd := &cobra.Command{
		Use:   "worker [flags] [paths]",
		Short: "Serve the agents of gram packages (default .) until interrupted",
		RunE: func(cmd *cobra.Command, paths []string) error {
			if len(paths) == 0 {
				paths = []string{"."}
			}
			runner := toolcmd.NewRunner(os.Environ())
			defer runner.Close()
			bound, err := bindAgents(paths, agents, tools, goTools, runner)
			if err != nil {
				return err
			}
			tel, stopTelemetry, err := startTelemetry(cmd.Context(), stderr, "gramc-temporal worker")
			if err != nil {
				return err
			}
			defer stopTelemetry()
			w, err := durable.New(durable.Config{
				Agents:        bound,
				Model:         func(a runtime.Agent) (runtime.Model, error) { return newModel(a.Model, baseURL) },
				ToolTimeout:   toolTimeout,
				ToolHeartbeat: heartbeat,
				Telemetry:     tel.Options(""),
			})
			if err != nil {
				return command.UsageError{Err: err}
			}
			c, err := conn.dial(tel)
			if err != nil {
				return err
			}
			defer c.Close()
			wk := worker.New(c, conn.taskQueue, worker.Options{})
			w.Register(wk)
			fmt.Fprintf(stderr, "gramc-temporal: serving %s on task queue %s at %s (namespace %s)\n",
				strings.Join(w.Agents(), ", "), conn.taskQueue, conn.address, conn.namespace)
			stop := make(chan any)
			go func() { <-cmd.Context().Done(); close(stop) }()
			return wk.Run(stop)
		},
	}
	conn.flags(cmd, DefaultTaskQueue)
	cmd.Flags().StringArrayVar(&tools, "tool", nil, "bind tool NAME to `NAME=COMMAND` (run with sh -c, arguments on stdin, as gramc run --tool); repeatable")
	cmd.Flags().StringArrayVar(&agents, "agent", nil, "serve only agent `NAME` (repeatable; default every agent)")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "the model provider's base URL (an OpenAI-compatible server, a proxy)")
	cmd.Flags().DurationVar(&toolTimeout, "tool-timeout", durable.DefaultToolTimeout, "bound on one tool call")
	cmd.Flags().DurationVar(&heartbeat, "heartbeat", durable.DefaultToolHeartbeat, "how soon a tool call whose worker died runs again elsewhere")
	return cmd
}

func runCmd(stdout, stderr io.Writer) *cobra.Command {
	var conn connection
	var agent, id string
	var maxIter int
	cmd := &cobra.Command{
		Use:   `run --agent NAME [--id ID] [paths] "input"`,
		Short: "Run an agent of the packages (default .) on the workers and print its answer (--id alone attaches to a run under way)",
		Long: `Run starts a run of the agent on the workers and prints its answer, as
gramc run prints it (a typed agent's value as JSON). The agent is looked up
in the packages of paths (default .), the ones the workers serve, and the
input checked against its parameters first: an unknown agent or a bad input
starts nothing. --id ID alone attaches to the run with that ID.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			input := ""
			if len(args) > 0 {
				input = args[len(args)-1]
			}
			if agent == "" && (id == "" || len(args) > 0) {
				return command.UsageError{Err: errors.New("run needs --agent NAME and an input (or --id ID alone to attach to a run)")}
			}
			if agent != "" {
				if strings.TrimSpace(input) == "" {
					return command.UsageError{Err: errors.New("the input is empty")}
				}
				paths := args[:len(args)-1]
				if len(paths) == 0 {
					paths = []string{"."}
				}
				// Refused here, before a workflow starts: a run the
				// workers would fail at once.
				if err := checkRun(paths, agent, input); err != nil {
					return err
				}
			}
			ctx := cmd.Context()
			tel, stopTelemetry, err := startTelemetry(ctx, stderr, "gramc-temporal run")
			if err != nil {
				return err
			}
			defer stopTelemetry()
			c, err := conn.dial(tel)
			if err != nil {
				return err
			}
			defer c.Close()
			var run client.WorkflowRun
			if agent == "" {
				run = durable.Attach(c, id)
			} else {
				run, err = durable.Start(ctx, c, client.StartWorkflowOptions{
					ID:                       id,
					TaskQueue:                conn.taskQueue,
					WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
				}, durable.Input{Agent: agent, Input: input, MaxIterations: maxIter})
				if err != nil {
					return err
				}
			}
			// A run no worker picks up waits for one; say so, and which
			// task queue it waits on, rather than wait in silence.
			watchCtx, stopWatch := context.WithCancel(ctx)
			defer stopWatch()
			go warnNoWorker(watchCtx, c, run, conn, stderr)
			resp, err := durable.Result(ctx, run)
			if err != nil && ctx.Err() != nil {
				return fmt.Errorf("interrupted: run %s goes on on the server; gramc-temporal run --id %s attaches to it", run.GetID(), run.GetID())
			}
			if err != nil {
				return fmt.Errorf("run %s: %w", run.GetID(), err)
			}
			printAnswer(stdout, stderr, resp)
			return nil
		},
	}
	conn.flags(cmd, DefaultTaskQueue)
	cmd.Flags().StringVar(&agent, "agent", "", "the agent to run")
	cmd.Flags().StringVar(&id, "id", "", "the run's workflow ID: a run with this ID under way is attached to, not started again")
	cmd.Flags().IntVar(&maxIter, "max-iterations", 0, "override the agent's iteration limit")
	return cmd
}

// printAnswer prints a run's answer as gramc run does: a typed agent's
// value as JSON (its prompted-output note on stderr), else the text.
func printAnswer(stdout, stderr io.Writer, resp *runtime.Response) {
	if resp.Value != nil {
		if resp.Lenient != "" {
			fmt.Fprintf(stderr, "gramc-temporal run: %s (prompted output)\n", termsafe.Line(resp.Lenient, 500))
		}
		fmt.Fprintln(stdout, termsafe.JSON(resp.Value))
		return
	}
	fmt.Fprintln(stdout, termsafe.Text(resp.Content, 1<<20))
}

// checkRun refuses a run of agent with input that could not start: no
// such agent in the packages of paths, or an input that is not a value
// of its parameters (runtime.AgentMessage, as gramc run checks it).
func checkRun(paths []string, name, input string) error {
	all, err := loadAgents(paths)
	if err != nil {
		return err
	}
	var names []string
	for _, ca := range all {
		if ca.Name != name {
			names = append(names, ca.Name)
			continue
		}
		agent, err := gramfile.AgentFromCheck(ca)
		if err != nil {
			return err
		}
		if _, err := runtime.AgentMessage(agent, input); err != nil {
			return command.UsageError{Err: errors.New(termsafe.Line(err.Error(), 2000))} // "invalid input: agent NAME: ...", as gramc run says
		}
		return nil
	}
	sort.Strings(names)
	msg := fmt.Sprintf("no agent %s in %s", termsafe.Line(name, 200), strings.Join(paths, " "))
	msg += suggest.Hint(name, names, "agents")
	return command.UsageError{Err: fmt.Errorf("%s (the agent is looked up in the packages the workers serve: gramc-temporal run --agent NAME PATH... \"input\")", msg)}
}

// noWorkerAfter is how long a run's workflow task may wait for a worker
// before gramc-temporal run says that none is polling its task queue.
var noWorkerAfter = 3 * time.Second

// warnNoWorker says, once, that no worker polls the run's task queue when
// the run's workflow task is still waiting to be picked up noWorkerAfter
// after it was scheduled (the run goes on waiting: a worker started later
// picks it up). The pending task, not the queue's list of pollers, is the
// test: Temporal lists a worker that died minutes after it stopped.
func warnNoWorker(ctx context.Context, c client.Client, run client.WorkflowRun, conn connection, stderr io.Writer) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(noWorkerAfter):
		}
		d, err := c.DescribeWorkflowExecution(ctx, run.GetID(), "")
		if err != nil {
			return
		}
		if d.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			return
		}
		task := d.GetPendingWorkflowTask()
		if task == nil || task.GetState() != enumspb.PENDING_WORKFLOW_TASK_STATE_SCHEDULED || time.Since(task.GetScheduledTime().AsTime()) < noWorkerAfter {
			continue
		}
		queue := d.GetExecutionConfig().GetTaskQueue().GetName()
		if queue == "" {
			queue = conn.taskQueue
		}
		fmt.Fprintf(stderr, "gramc-temporal: no worker is polling task queue %s at %s (namespace %s); the run waits for one: start gramc-temporal worker --task-queue %s\n",
			termsafe.Line(queue, 200), termsafe.Line(conn.address, 200), termsafe.Line(conn.namespace, 200), termsafe.Line(queue, 200))
		return
	}
}

// bindAgents loads the packages of paths and binds the agents named (all
// when none) to tool commands, else to the Go tools of MainWithTools.
func bindAgents(paths, names, toolFlags []string, goTools map[string]runtime.ToolFunc, runner *toolcmd.Runner) ([]*runtime.BoundAgent, error) {
	all, err := loadAgents(paths)
	if err != nil {
		return nil, err
	}
	commands := map[string]string{}
	for _, tf := range toolFlags {
		name, cmdline, ok := strings.Cut(tf, "=")
		if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(cmdline) == "" {
			return nil, command.UsageError{Err: fmt.Errorf("--tool %q: want NAME=COMMAND", tf)}
		}
		commands[strings.TrimSpace(name)] = cmdline
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []*runtime.BoundAgent
	for _, ca := range all {
		if len(want) > 0 && !want[ca.Name] {
			continue
		}
		delete(want, ca.Name)
		agent, err := gramfile.AgentFromCheck(ca)
		if err != nil {
			return nil, err
		}
		lib := runtime.NewToolLibrary()
		var missing []string
		for _, spec := range runtime.LibraryTools(agent) { // its listed agents' tools too
			if command, ok := commands[spec.Name]; ok {
				lib.Replace(runtime.Tool{Spec: spec, Func: runner.Tool(command)})
			} else if f := goTools[spec.Name]; f != nil {
				lib.Replace(runtime.Tool{Spec: spec, Func: f})
			} else {
				missing = append(missing, spec.Name)
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			return nil, command.UsageError{Err: fmt.Errorf("agent %s: no command for tool %s: bind it with --tool %s=COMMAND", agent.Name, strings.Join(missing, ", "), missing[0])}
		}
		b, err := runtime.Bind(agent, lib)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	if len(want) > 0 {
		var left []string
		for n := range want {
			left = append(left, n)
		}
		sort.Strings(left)
		return nil, command.UsageError{Err: fmt.Errorf("no agent %s in %s", strings.Join(left, ", "), strings.Join(paths, " "))}
	}
	if len(out) == 0 {
		return nil, command.UsageError{Err: fmt.Errorf("no agents in %s", strings.Join(paths, " "))}
	}
	return out, nil
}

// loadAgents are the agents of the packages of paths, which must have no
// errors.
func loadAgents(paths []string) ([]*check.Agent, error) {
	pkgs, diags, err := load.Packages(paths, nil)
	if err != nil {
		return nil, command.UsageError{Err: err}
	}
	if diags.HasErrors() {
		var b strings.Builder
		for _, d := range diags.Errors() {
			fmt.Fprintf(&b, "\n  %s", termsafe.Line(d.Error(), 500))
		}
		return nil, command.UsageError{Err: fmt.Errorf("the packages have errors:%s", b.String())}
	}
	var all []*check.Agent
	for _, p := range pkgs {
		all = append(all, p.Agents...)
	}
	return all, nil
}

// newModel makes the client for model's provider, with its own retries
// off: the model activity's retry policy retries instead.
func newModel(model, baseURL string) (runtime.Model, error) {
	opts := []clientopt.Option{clientopt.WithMaxRetries(0)}
	if baseURL != "" {
		opts = append(opts, clientopt.WithBaseURL(baseURL))
	}
	return clients.New(model, opts...)
}
