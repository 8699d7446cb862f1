package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/gramc-dev/gramc/eval"
)

func init() {
	// evalremote ARGS... is gramc eval ARGS with every run dispatched, as
	// gramc-temporal eval dispatches them, to a worker in this process:
	// EvalWorker builds the eval from the same arguments, and each run's
	// record comes back as JSON, as a workflow's result does.
	scriptCommands["evalremote"] = func() {
		os.Exit(EvalRemote(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, inProcessWorker))
	}
}

func inProcessWorker(args []string) func(context.Context, eval.Job) (eval.RunRecord, error) {
	var once sync.Once
	var w *eval.Worker
	var werr error
	return func(ctx context.Context, j eval.Job) (eval.RunRecord, error) {
		once.Do(func() { w, _, werr = EvalWorker(args, nil) })
		if werr != nil {
			return eval.RunRecord{}, fmt.Errorf("worker: %w", werr)
		}
		r, err := w.RunJob(ctx, j)
		if err != nil {
			return eval.RunRecord{}, err
		}
		data, err := json.Marshal(r)
		if err != nil {
			return eval.RunRecord{}, err
		}
		var back eval.RunRecord
		return back, json.Unmarshal(data, &back)
	}
}
