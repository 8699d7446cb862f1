package eval

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gramc-dev/gramc/agenttest"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
)

// Options configure an eval.
type Options struct {
	// Runs is how often each test runs for each variant (0: 5).
	Runs int
	// K is pass^k's and pass@k's k (0: Runs).
	K int
	// Concurrency bounds the runs in flight (0: 4).
	Concurrency int
	// Tools are the implementations of tools by name, for tests whose
	// results are "bound" or "cassette" (as agenttest.Options.Tools).
	Tools       map[string]runtime.ToolFunc
	ToolTimeout time.Duration
	// ClientOptions are given to every provider client (a base URL).
	ClientOptions []clientopt.Option
	// Secrets are never written to a recording (nil: the providers' key
	// variables' values).
	Secrets []string
	// Prices give the cost of a run's tokens, by model.
	Prices Prices
	// MaxCost, when positive, is a budget in USD: no run is started that
	// would, at the costliest run so far, take the spend beyond it.
	MaxCost float64
	// Record, when not empty, is a directory where every run's traffic
	// is recorded, one cassette per run; Replay one to recompute the
	// report from, offline. At most one of them.
	Record, Replay string
	// Grace bounds how long runs in flight may finish after ctx ends
	// (0: 30 s); then they are cancelled and left out.
	Grace time.Duration
	// Progress, when not nil, is called after each run.
	Progress func(Progress)
	// BindHint is agenttest.Options.BindHint.
	BindHint string
	// Dispatch, when set, makes each run elsewhere instead of here — on
	// whatever Temporal worker polls a queue, for gramc-temporal eval —
	// and returns its record, which RunJob made there from the same
	// tests, variants and options. An error is the run's: it is left out
	// of the report when ctx ended (an interrupt), and errored otherwise.
	Dispatch func(ctx context.Context, j Job) (RunRecord, error)
}

// Job is one run of an eval: the eval's Test-th test (in the order Run
// was given them) × its Variant-th variant, the Run-th time (from 0).
type Job struct {
	Test    int `json:"test"`
	Variant int `json:"variant"`
	Run     int `json:"run"`
}

// Progress is how far an eval has got.
type Progress struct {
	Done, Total     int
	Passed, Counted int // passes of the runs that count (not errored)
	Cost            float64
}

func (o Options) withDefaults() Options {
	if o.Runs <= 0 {
		o.Runs = 5
	}
	if o.K <= 0 {
		o.K = o.Runs
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Grace <= 0 {
		o.Grace = 30 * time.Second
	}
	return o
}

// Why an eval stopped before running everything.
const (
	StoppedMaxCost     = "max-cost"
	StoppedInterrupted = "interrupted"
)

// job is one run to make: test t × variant v, the i-th time.
type job struct{ t, v, i int }

func (j job) exported() Job { return Job{Test: j.t, Variant: j.v, Run: j.i} }

// plan orders the runs so that a partial eval covers every cell evenly:
// every cell's first run, then every cell's second, and so on.
func plan(tests, variants, runs int) []job {
	jobs := make([]job, 0, tests*variants*runs)
	for i := range runs {
		for v := range variants {
			for t := range tests {
				jobs = append(jobs, job{t, v, i})
			}
		}
	}
	return jobs
}

// Run runs every test runs times for every variant, at most
// o.Concurrency at once, and reports. The error is for what stops the
// eval as a whole (a replay directory that does not hold the eval); a
// run's own problems are in its record.
func Run(ctx context.Context, tests []*check.Test, variants []Variant, o Options) (*Report, error) {
	o = o.withDefaults()
	if o.Record != "" && o.Replay != "" {
		return nil, errors.New("record and replay: give one")
	}
	e, err := newEvaluation(tests, variants, o)
	if err != nil {
		return nil, err
	}
	var manifest *Manifest
	if o.Replay != "" {
		m, err := ReadManifest(o.Replay)
		if err != nil {
			return nil, err
		}
		if err := m.matches(e, o.Replay); err != nil {
			return nil, err
		}
		manifest = m
	}
	s := &scheduler{e: e, jobs: plan(len(e.tests), len(e.variants), o.Runs)}
	stopped := s.loop(ctx)
	if manifest != nil {
		stopped = manifest.Stopped
	}
	rep := buildReport(e, s.records, len(s.jobs), stopped)
	if o.Record != "" {
		if err := writeManifest(o.Record, manifestOf(e, stopped)); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// newEvaluation is what the runs of an eval share, o with its defaults.
func newEvaluation(tests []*check.Test, variants []Variant, o Options) (*evaluation, error) {
	if len(variants) == 0 {
		variants = []Variant{{Name: "default"}}
	}
	for _, v := range variants {
		if err := CheckVariantName(v.Name); err != nil {
			return nil, err
		}
	}
	return &evaluation{tests: tests, variants: variants, o: o, dirs: runDirs(tests, variants)}, nil
}

// A Worker makes the runs of one eval that Options.Dispatch sends it:
// exactly as Run would make them here, so the report is the same.
type Worker struct{ e *evaluation }

// NewWorker is the worker of the eval of tests × variants under o: the
// same arguments the dispatching eval's Run was given.
func NewWorker(tests []*check.Test, variants []Variant, o Options) (*Worker, error) {
	o.Dispatch = nil
	e, err := newEvaluation(tests, variants, o.withDefaults())
	if err != nil {
		return nil, err
	}
	return &Worker{e: e}, nil
}

// RunJob makes run j and returns its record; a job the eval does not
// have is an error.
func (w *Worker) RunJob(ctx context.Context, j Job) (RunRecord, error) {
	if j.Test < 0 || j.Test >= len(w.e.tests) || j.Variant < 0 || j.Variant >= len(w.e.variants) || j.Run < 0 || j.Run >= w.e.o.Runs {
		return RunRecord{}, fmt.Errorf("eval: no run %+v in this eval (%d tests, %d variants, %d runs)", j, len(w.e.tests), len(w.e.variants), w.e.o.Runs)
	}
	r := w.e.run(ctx, job{j.Test, j.Variant, j.Run})
	if r.cancelled {
		return RunRecord{}, ctx.Err()
	}
	return r, nil
}

// evaluation is what every run of an eval shares.
type evaluation struct {
	tests    []*check.Test
	variants []Variant
	o        Options
	dirs     runPaths
	cache    agenttest.Cache
}

// scheduler starts runs, keeps the records and decides when to stop.
type scheduler struct {
	e       *evaluation
	jobs    []job
	records []RunRecord
	spent   float64
	dearest float64 // the costliest run so far
	passed  int
	counted int
}

// loop runs the jobs, at most Concurrency at once, until all are done or
// ctx ends or the budget would be crossed; it returns why it stopped
// early ("" when it did not).
func (s *scheduler) loop(ctx context.Context) string {
	o := s.e.o
	runCtx, cancelRuns := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRuns()
	stopGrace := context.AfterFunc(ctx, func() { time.AfterFunc(o.Grace, cancelRuns) })
	defer stopGrace()
	results := make(chan RunRecord)
	stopped, next, inflight := "", 0, 0
	for {
		for stopped == "" && next < len(s.jobs) && inflight < o.Concurrency {
			if ctx.Err() != nil {
				stopped = StoppedInterrupted
				break
			}
			if !s.affordable(inflight) {
				if inflight == 0 {
					stopped = StoppedMaxCost
				}
				break
			}
			j := s.jobs[next]
			next++
			if !s.e.recorded(j) {
				continue
			}
			inflight++
			go func() { results <- s.e.runOrDispatch(runCtx, j) }()
		}
		if inflight == 0 {
			return stopped
		}
		select {
		case r := <-results:
			inflight--
			s.add(r)
		case <-ctx.Done():
			if stopped == "" {
				stopped = StoppedInterrupted
			}
			r := <-results // no more scheduling: wait for what is in flight
			inflight--
			s.add(r)
		}
	}
}

// affordable reports whether one more run fits the budget, reckoned at
// the costliest run so far for it and for each run in flight. Before
// any run has finished the cost is unknown: one run at a time.
func (s *scheduler) affordable(inflight int) bool {
	if s.e.o.MaxCost <= 0 {
		return true
	}
	if len(s.records) == 0 {
		return inflight == 0
	}
	return s.spent+float64(inflight+1)*s.dearest <= s.e.o.MaxCost
}

func (s *scheduler) add(r RunRecord) {
	if r.cancelled {
		return
	}
	s.records = append(s.records, r)
	s.spent += r.CostUSD
	s.dearest = max(s.dearest, r.CostUSD)
	if r.Outcome != Errored {
		s.counted++
		if r.Outcome == Passed {
			s.passed++
		}
	}
	if p := s.e.o.Progress; p != nil {
		p(Progress{Done: len(s.records), Total: len(s.jobs), Passed: s.passed, Counted: s.counted, Cost: s.spent})
	}
}

// runOrDispatch makes run j here, or where Options.Dispatch sends it.
func (e *evaluation) runOrDispatch(ctx context.Context, j job) RunRecord {
	if e.o.Dispatch == nil {
		return e.run(ctx, j)
	}
	r, err := e.o.Dispatch(ctx, j.exported())
	if err != nil {
		r = e.record(j, &agenttest.Result{RunErr: err})
		r.Outcome, r.Error, r.Failures = Errored, err.Error(), []FailureRecord{}
		r.cancelled = ctx.Err() != nil
		return r
	}
	// What travelled is the record's JSON; its place in the eval is j's.
	r.test, r.variant = j.t, j.v
	return r
}

// run makes one run of job j.
func (e *evaluation) run(ctx context.Context, j job) RunRecord {
	t, v, o := e.tests[j.t], e.variants[j.v], e.o
	ao := agenttest.Options{Live: true, Tools: o.Tools, ToolTimeout: o.ToolTimeout, ClientOptions: o.ClientOptions,
		Secrets: o.Secrets, BindHint: o.BindHint, Variant: v.Tools, Agent: v.apply, NoStream: true, Cache: &e.cache}
	switch {
	case o.Record != "":
		ao.Live, ao.Mode, ao.Cassette = false, cassette.Record, e.dirs.cassette(o.Record, j)
	case o.Replay != "":
		ao.Live, ao.Mode, ao.Cassette = false, cassette.Replay, e.dirs.cassette(o.Replay, j)
	}
	r := agenttest.Run(ctx, t, ao)
	rec := e.record(j, r)
	rec.cancelled = r.RunErr != nil && ctx.Err() != nil
	if rec.cancelled {
		return rec
	}
	switch {
	case o.Record != "":
		if err := writeRunMeta(e.dirs.meta(o.Record, j), runMeta{LatencyNanos: r.Elapsed.Nanoseconds()}); err != nil {
			rec.Outcome, rec.Error = Errored, fmt.Sprintf("recording run %d: %v", j.i+1, err)
		}
	case o.Replay != "":
		m, err := readRunMeta(e.dirs.meta(o.Replay, j))
		if err != nil {
			rec.Outcome, rec.Error = Errored, err.Error()
		}
		rec.LatencyMs = millis(time.Duration(m.LatencyNanos))
	}
	return rec
}

// recorded reports whether job j has a recording to replay (a replay of
// an eval that stopped early has fewer runs); without a replay, yes.
func (e *evaluation) recorded(j job) bool {
	if e.o.Replay == "" {
		return true
	}
	return fileExists(e.dirs.meta(e.o.Replay, j))
}

// record is run j's result as the report keeps it.
func (e *evaluation) record(j job, r *agenttest.Result) RunRecord {
	t, v := e.tests[j.t], e.variants[j.v]
	model := modelOf(t, v)
	rec := RunRecord{Test: t.Name, Variant: v.Name, Run: j.i + 1, Model: model,
		InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens,
		LatencyMs: millis(r.Elapsed), Failures: []FailureRecord{}, test: j.t, variant: j.v}
	rec.CostUSD = e.o.Prices.Cost(model, r.Usage)
	switch {
	case r.Errored():
		rec.Outcome, rec.Error = Errored, r.RunErr.Error()
	case r.Passed():
		rec.Outcome = Passed
	default:
		rec.Outcome = Failed
		for _, f := range r.Failures {
			rec.Failures = append(rec.Failures, FailureRecord{Kind: string(f.Kind), Message: f.String()})
		}
	}
	return rec
}

// modelOf is the model test t's agent runs on in variant v.
func modelOf(t *check.Test, v Variant) string {
	if v.Model != "" {
		return v.Model
	}
	if t.Agent != nil {
		return t.Agent.Model
	}
	return ""
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
