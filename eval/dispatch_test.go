package eval

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
)

// TestDispatchIsRun (issue 46.8): an eval whose runs are dispatched —
// each made by a Worker elsewhere, its record coming back as JSON, as
// gramc-temporal eval's workflows return it — reports the same bytes as
// the eval made here, for the same recorded runs; a dispatch that fails
// is an errored run, and one cut by an interrupt is left out.
func TestDispatchIsRun(t *testing.T) {
	rec, list, o := recorded(t, 5, Options{Runs: 4, Concurrency: 3})
	if rec.Completed != 8 {
		t.Fatalf("recording: %d runs", rec.Completed)
	}
	local, err := Run(context.Background(), list, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorker(list, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	var dispatched atomic.Int32
	o.Dispatch = func(ctx context.Context, j Job) (RunRecord, error) {
		dispatched.Add(1)
		r, err := w.RunJob(ctx, j)
		if err != nil {
			return RunRecord{}, err
		}
		data, err := json.Marshal(r) // what a workflow's result carries
		if err != nil {
			return RunRecord{}, err
		}
		var back RunRecord
		return back, json.Unmarshal(data, &back)
	}
	remote, err := Run(context.Background(), list, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the dispatched eval's report", remote, "the local one", local)
	if n := dispatched.Load(); n != 8 {
		t.Errorf("%d runs dispatched, want 8", n)
	}
	if _, err := w.RunJob(context.Background(), Job{Test: 2}); err == nil {
		t.Error("a job the eval does not have: no error")
	}
	o.Dispatch = func(context.Context, Job) (RunRecord, error) {
		return RunRecord{}, errors.New("no worker polls the queue")
	}
	failed, err := Run(context.Background(), list, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(failed.RunList) == 0 {
		t.Fatalf("a failed dispatch: no runs reported (%d completed)", failed.Completed)
	}
	if failed.Completed != 8 || failed.RunList[0].Outcome != Errored || failed.RunList[0].Error != "no worker polls the queue" {
		t.Errorf("a failed dispatch: %d runs, first %+v", failed.Completed, failed.RunList[0])
	}
}
