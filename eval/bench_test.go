package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// The eval's own cost per run: BenchmarkEvalOverhead makes the same runs
// (the greets test: two requests and a mocked tool call, against the
// local fake, 32 at a time) through gramc eval's Run and through
// runtime.Run alone (one client, made once), in alternating rounds of 500
// so that the load of a shared machine falls on both alike, and reports
// each side's CPU time and allocations per run (getrusage and
// runtime.MemStats: the fake's share is in both, equally) and the eval's
// overhead in percent. docs/performance.md has the figures:
//
//	go test ./eval -run XXX -bench EvalOverhead -benchtime 10000x

const (
	benchConcurrency = 32
	benchRound       = 500
)

func BenchmarkEvalOverhead(b *testing.B) {
	tests := loadTests(b, pkg)
	_, opts := fakeServer(b, &runtimetest.Chance{})
	direct := newDirectRuns(b, tests["greets"], opts)
	var evalCost, runtimeCost cost
	b.ResetTimer()
	for done := 0; done < b.N; done += benchRound {
		n := min(benchRound, b.N-done)
		runtimeCost.add(measure(func() { direct.run(b, n) }))
		evalCost.add(measure(func() {
			r, err := Run(context.Background(), []*check.Test{tests["greets"]}, nil, Options{Runs: n, Concurrency: benchConcurrency, ClientOptions: opts})
			if err != nil || r.Cells[0].Passed != n {
				b.Fatalf("%v: %+v", err, r.Cells[0].Rates)
			}
		}))
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(evalCost.cpu.Microseconds())/n, "eval-cpu-µs/run")
	b.ReportMetric(float64(runtimeCost.cpu.Microseconds())/n, "runtime-cpu-µs/run")
	b.ReportMetric(float64(evalCost.mallocs)/n, "eval-allocs/run")
	b.ReportMetric(float64(runtimeCost.mallocs)/n, "runtime-allocs/run")
	b.ReportMetric(100*(float64(evalCost.cpu)/float64(runtimeCost.cpu)-1), "overhead-cpu-%")
	b.ReportMetric(n/evalCost.wall.Seconds(), "eval-runs/s")
}

// cost is what some runs took.
type cost struct {
	cpu, wall time.Duration
	mallocs   uint64
}

func (c *cost) add(d cost) { c.cpu += d.cpu; c.wall += d.wall; c.mallocs += d.mallocs }

// measure is f's cost: the process's CPU time (user and system) and
// heap allocations, and the wall time.
func measure(f func()) cost {
	var m0, m1 goruntime.MemStats
	goruntime.ReadMemStats(&m0)
	cpu0, start := cpuTime(), time.Now()
	f()
	wall, cpu := time.Since(start), cpuTime()-cpu0
	goruntime.ReadMemStats(&m1)
	return cost{cpu: cpu, wall: wall, mallocs: m1.Mallocs - m0.Mallocs}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// directRuns runs a test's agent with runtime.Run alone.
type directRuns struct {
	model runtime.Model
	agent runtime.Agent
	lib   *runtime.ToolLibrary
	input string
}

func newDirectRuns(b testing.TB, t *check.Test, opts []clientopt.Option) *directRuns {
	agent, err := gramfile.AgentFromCheck(t.Agent)
	if err != nil {
		b.Fatal(err)
	}
	model, err := clients.New(agent.Model, opts...)
	if err != nil {
		b.Fatal(err)
	}
	lib := runtime.NewToolLibrary()
	for _, spec := range runtime.LibraryTools(agent) {
		lib.Replace(runtime.Tool{Spec: spec, Func: func(context.Context, json.RawMessage) (any, error) { return "Hi, Ada", nil }})
	}
	return &directRuns{model: model, agent: agent, lib: lib, input: t.Input}
}

// run makes n runs, benchConcurrency at a time.
func (d *directRuns) run(b *testing.B, n int) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range benchConcurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				resp, err := runtime.Run(context.Background(), d.model, d.agent, d.lib, d.input, nil, runtime.WithConcurrency(1))
				if err != nil || resp.Content != "Hi, Ada" {
					failed.Add(1)
				}
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if failed.Load() > 0 {
		b.Fatalf("%d runs failed", failed.Load())
	}
}

// syntheticEval is an evaluation of tests × variants × runs whose
// records are made up (a fixed pattern of outcomes, tokens and
// latencies), for the report's own benchmark.
func syntheticEval(tests, variants, runs int) (*evaluation, []RunRecord) {
	e := &evaluation{o: Options{Runs: runs}.withDefaults()}
	for t := range tests {
		e.tests = append(e.tests, &check.Test{Name: fmt.Sprintf("test%02d", t)})
	}
	for v := range variants {
		e.variants = append(e.variants, Variant{Name: fmt.Sprintf("OpenAI/model-%d", v)})
	}
	var recs []RunRecord
	for v := range variants {
		for t := range tests {
			for i := range runs {
				out := Passed
				switch {
				case (i*7+t+v)%10 == 0:
					out = Failed
				case (i*13+t)%97 == 0:
					out = Errored
				}
				r := RunRecord{Test: e.tests[t].Name, Variant: e.variants[v].Name, Run: i + 1, Model: e.variants[v].Name, Outcome: out,
					Failures: []FailureRecord{}, InputTokens: 500 + i%50, OutputTokens: 80 + i%20, CostUSD: 0.0002,
					LatencyMs: float64(300 + (i*37)%900), test: t, variant: v}
				if out == Failed {
					r.Failures = append(r.Failures, FailureRecord{Kind: "answer", Message: "agent.gram:3:1: the answer does not contain \"Hi\"; it is \"no\""})
				}
				recs = append(recs, r)
			}
		}
	}
	return e, recs
}

// BenchmarkReport builds and renders the report of 10,000 runs (10
// tests × 4 variants × 250 runs) in each format.
func BenchmarkReport(b *testing.B) {
	e, recs := syntheticEval(10, 4, 250)
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buildReport(e, recs, len(recs), "")
		}
		b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	})
	r := buildReport(e, recs, len(recs), "")
	for _, f := range Formats {
		b.Run(f, func(b *testing.B) {
			b.ReportAllocs()
			var n countingWriter
			for b.Loop() {
				if err := r.Render(&n, f, RenderOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(n) / int64(b.N))
		})
	}
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
