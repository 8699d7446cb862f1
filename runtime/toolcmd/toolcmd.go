// Package toolcmd binds gram tools to shell commands, as `gramc run --tool
// NAME=COMMAND` and `gramc mcp --tool NAME=COMMAND` do: the validated
// arguments are one JSON line on the command's standard input, its
// standard output is the result, and a non-zero exit is a tool error
// carrying its standard error.
//
// A command runs in a process group of its own, and the group is killed
// when the call ends however it ends: the command exits (background
// children that hold its output open die with it, and the command's own
// result stands), the tool timeout or cancellation fires, or the Runner is
// closed because gramc received a signal. Nothing a tool starts outlives
// its call.
package toolcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gramc-dev/gramc/internal/capped"
	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
)

// Limits on what a tool command may print: a result is sent to the model,
// so a runaway command (yes, cat of a large file) must not fill memory.
const (
	MaxStdout = 8 << 20  // standard output: beyond it the call fails
	MaxStderr = 64 << 10 // standard error: the rest is dropped
)

// drainDelay bounds how long a call waits for its output pipes after the
// command's process group is killed (a grandchild that left the group with
// setsid could otherwise hold them open for ever).
const drainDelay = time.Second

// Runner starts tool commands and knows every one still running, so that
// Close can kill them all (on a signal) and wait until they are gone.
type Runner struct {
	env []string

	mu      sync.Mutex
	live    map[*exec.Cmd]struct{}
	closed  bool
	running sync.WaitGroup
}

// NewRunner returns a Runner whose commands get environ without the
// variables that hold credentials (WithheldVars: a tool has no use for
// them, and its output goes to a model), but for those named in pass.
func NewRunner(environ []string, pass ...string) *Runner {
	return &Runner{env: ToolEnv(environ, pass...), live: map[*exec.Cmd]struct{}{}}
}

// SecretVars are the environment variables that hold API keys: a tool
// command never gets them, and gramc run redacts their values from all it
// prints.
var SecretVars = provider.KeyVariables()

// WithheldVars are the environment variables a tool command (or an MCP
// server command of gramc run --mcp) does not get unless asked for by
// name: the API keys, gramc mcp's bearer token, and the OTLP exporter's
// headers, which carry a collector's credentials.
var WithheldVars = append(append([]string(nil), SecretVars...),
	"GRAMC_MCP_TOKEN",
	"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
	"OTEL_EXPORTER_OTLP_METRICS_HEADERS", "OTEL_EXPORTER_OTLP_LOGS_HEADERS")

// ToolEnv is environ without WithheldVars, but for those named in pass.
func ToolEnv(environ []string, pass ...string) []string {
	out := make([]string, 0, len(environ))
next:
	for _, kv := range environ {
		for _, v := range WithheldVars {
			if strings.HasPrefix(kv, v+"=") && !slices.Contains(pass, v) {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

// IdempotencyKeyVar is the environment variable that gives a tool command
// its call's idempotency key (runtime.IdempotencyKey), when it has one.
const IdempotencyKeyVar = "GRAMC_IDEMPOTENCY_KEY"

// ErrClosed is the error of a call that the Runner's Close stopped.
var ErrClosed = errors.New("stopped: gramc is exiting")

// Tool returns a runtime.ToolFunc that runs `sh -c command` for each call.
func (r *Runner) Tool(command string) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		return r.run(ctx, command, args)
	}
}

func (r *Runner) run(ctx context.Context, command string, args json.RawMessage) (any, error) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Env = r.env
	if key := runtime.IdempotencyKey(ctx); key != "" {
		cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], IdempotencyKeyVar+"="+key)
	}
	newProcessGroup(cmd)

	// The command's standard streams are pipes of our own (not exec's
	// copying goroutines), so that Wait returns when the command exits
	// even if a background child still holds them: the group is killed
	// then, and the pipes drain.
	stdin, stdinW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stdoutR, stdout, err := os.Pipe()
	if err != nil {
		stdin.Close()
		stdinW.Close()
		return nil, err
	}
	stderrR, stderr, err := os.Pipe()
	if err != nil {
		stdin.Close()
		stdinW.Close()
		stdoutR.Close()
		stdout.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr

	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		for _, f := range []*os.File{stdin, stdinW, stdoutR, stdout, stderrR, stderr} {
			f.Close()
		}
		return nil, ErrClosed
	}
	startErr := cmd.Start()
	if startErr == nil {
		r.live[cmd] = struct{}{}
		r.running.Add(1)
	}
	r.mu.Unlock()
	// The child has its copies; ours would keep the pipes open.
	stdin.Close()
	stdout.Close()
	stderr.Close()
	if startErr != nil {
		stdinW.Close()
		stdoutR.Close()
		stderrR.Close()
		return nil, startErr
	}
	defer r.running.Done()

	go func() {
		stdinW.Write(append(args, '\n')) //nolint:errcheck // a command need not read its input
		stdinW.Close()
	}()
	outBuf := &capped.Buffer{Limit: MaxStdout, Fail: true}
	errBuf := &capped.Buffer{Limit: MaxStderr}
	var drained sync.WaitGroup
	drained.Add(2)
	go func() {
		defer drained.Done()
		io.Copy(outBuf, stdoutR) //nolint:errcheck
		if outBuf.Over {
			// Over the limit: stop the command now rather than let it
			// block on a full pipe until the timeout.
			killGroup(cmd)
		}
	}()
	go func() { defer drained.Done(); io.Copy(errBuf, stderrR) }() //nolint:errcheck

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-ctx.Done():
		killGroup(cmd)
		<-exited
	}
	// Whatever the command left running in its group dies with the call.
	killGroup(cmd)
	r.mu.Lock()
	delete(r.live, cmd)
	r.mu.Unlock()

	done := make(chan struct{})
	go func() { drained.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(drainDelay):
	}
	stdoutR.Close()
	stderrR.Close()
	<-done

	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.isClosed() {
		return nil, ErrClosed
	}
	if outBuf.Over {
		return nil, fmt.Errorf("the command printed more than %d MiB; a tool result must be smaller", MaxStdout>>20)
	}
	if waitErr != nil {
		msg := strings.TrimSpace(errBuf.String())
		if msg == "" {
			return nil, waitErr
		}
		return nil, fmt.Errorf("%v: %s", waitErr, msg)
	}
	return strings.TrimRight(outBuf.String(), "\r\n"), nil
}

func (r *Runner) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// Close kills the process group of every command still running, refuses
// new ones, and returns when every call has ended. gramc calls it on a
// signal before it exits, so no tool process is orphaned.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	for cmd := range r.live {
		killGroup(cmd)
	}
	r.mu.Unlock()
	r.running.Wait()
}

// NewProcessGroup makes cmd, before it starts, the leader of a process
// group of its own, so that KillGroup reaches every process it starts: for
// a command run by another client of its output (gramc diff --against-mcp's
// MCP server).
func NewProcessGroup(cmd *exec.Cmd) { newProcessGroup(cmd) }

// KillGroup kills the process group NewProcessGroup made (the command
// itself where there are no groups).
func KillGroup(cmd *exec.Cmd) { killGroup(cmd) }
