package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clients"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// The eval's own cost per run is BenchmarkEvalRuns' time and
// allocations per run less BenchmarkRuntimeRuns': the same runs (the
// greets test: two requests and a mocked tool call, against the local
// fake, 32 at a time) made by runtime.Run directly, with one client made
// once. docs/performance.md has the figures:
//
//	go test ./eval -run XXX -bench 'Runs$' -benchtime 10000x

const benchConcurrency = 32

func BenchmarkEvalRuns(b *testing.B) {
	tests := loadTests(b, pkg)
	_, opts := fakeServer(b, &runtimetest.Chance{})
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	r, err := Run(context.Background(), []*check.Test{tests["greets"]}, nil, Options{Runs: b.N, Concurrency: benchConcurrency, ClientOptions: opts})
	b.StopTimer()
	if err != nil || r.Cells[0].Passed != b.N {
		b.Fatalf("%v: %+v", err, r.Cells[0].Rates)
	}
	reportRuns(b, cpu)
}

func BenchmarkRuntimeRuns(b *testing.B) {
	tests := loadTests(b, pkg)
	_, opts := fakeServer(b, &runtimetest.Chance{})
	agent, err := gramfile.AgentFromCheck(tests["greets"].Agent)
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
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	for range benchConcurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				resp, err := runtime.Run(context.Background(), model, agent, lib, "Hello, I am Ada", nil, runtime.WithConcurrency(1))
				if err != nil || resp.Content != "Hi, Ada" {
					mu.Lock()
					failed++
					mu.Unlock()
				}
			}
		}()
	}
	for i := range b.N {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	b.StopTimer()
	if failed > 0 {
		b.Fatalf("%d runs failed", failed)
	}
	reportRuns(b, cpu)
}

// cpuTime is the process's CPU time so far (user and system): on a
// machine shared with other work the wall time per run says more about
// the others than about the runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRuns reports runs/s and the CPU time per run since start (the
// fake's share included, the same in both benchmarks).
func reportRuns(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	b.ReportMetric(float64((cpuTime()-start).Microseconds())/float64(b.N), "cpu-µs/run")
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

func (c *countingWriter) Write(p []byte) (int, error) { *c += countingWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countingWriter)(nil)
