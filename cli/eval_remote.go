package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/eval"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

// gramc eval's runs made elsewhere (issue 46.8): gramc-temporal eval is
// gramc eval — the same flags, the same tests, variants and report —
// whose every run is a workflow that a worker makes. A worker rebuilds
// the eval from the very arguments the eval was given, with the code
// gramc eval builds it with (EvalWorker), so a run made there is the run
// gramc eval would make here, and the report is the same bytes.

// evalRunsAt is where gramc eval makes its runs: it gets the eval as
// gramc eval built it (and the runner of its tool commands) and returns
// the options to run it with (a Dispatch set), or stop: the eval is
// built and nothing is to run here (the runner is the hook's from then).
type evalRunsAt func(ctx context.Context, tests []*check.Test, variants []eval.Variant, o eval.Options, runner *toolcmd.Runner) (eval.Options, bool, error)

// EvalRemote runs gramc eval with args (its flags and paths, without
// "eval") and every run dispatched: dispatch(args) is Options.Dispatch, a
// function that has a worker make the run (EvalWorker) and returns its
// record. It returns the exit code, as Do does.
func EvalRemote(args []string, stdin io.Reader, stdout, stderr io.Writer, dispatch func(args []string) func(context.Context, eval.Job) (eval.RunRecord, error)) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, args: append([]string{"eval"}, args...)}
	send := dispatch(args)
	e.evalRuns = func(_ context.Context, _ []*check.Test, _ []eval.Variant, o eval.Options, _ *toolcmd.Runner) (eval.Options, bool, error) {
		o.Dispatch = send
		return o, false, nil
	}
	return do(e)
}

// EvalWorker builds, from gramc eval's args (read in the current
// directory, as gramc eval reads them), the eval a worker makes runs of
// for EvalRemote; goTools are Go tools, as DoWithTools takes them. close
// ends the tool commands it keeps; an eval that cannot be built is an
// error saying why, in gramc eval's words.
func EvalWorker(args []string, goTools map[string]runtime.ToolFunc) (w *eval.Worker, close func(), err error) {
	var out, errs bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs, args: append([]string{"eval"}, args...), goTools: goTools}
	close = func() {}
	e.evalRuns = func(_ context.Context, tests []*check.Test, variants []eval.Variant, o eval.Options, runner *toolcmd.Runner) (eval.Options, bool, error) {
		w, err = eval.NewWorker(tests, variants, o)
		close = runner.Close
		return o, true, err
	}
	if code := do(e); code != ExitOK && err == nil {
		msg := strings.TrimSpace(errs.String())
		if msg == "" {
			msg = "gramc eval exited with status " + strconv.Itoa(code)
		}
		err = errors.New(msg)
	}
	if err == nil && w == nil {
		err = errors.New("gramc eval built no eval from these arguments")
	}
	return w, close, err
}
