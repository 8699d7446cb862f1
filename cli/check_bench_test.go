package cli

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/internal/gramgen"
)

// mistakeTools is the size of BenchmarkCheckMistakes's file: 251,852 tools
// of one diagnostic each, 15 MB (issue 20.9).
const mistakeTools = 251_852

// BenchmarkCheckMistakes runs gramc check (in process, as the binary does)
// on one 15 MB file of 251,852 tiny tools each with one diagnostic
// (gramgen.Mistakes), in every output format. It reports the peak of the
// heap (objects, live or not, sampled every 100 µs) and the peak live heap
// (what each garbage collection kept), both per input byte.
// Run: go test ./cli -run '^$' -bench CheckMistakes -benchtime 3x
func BenchmarkCheckMistakes(b *testing.B) {
	src := gramgen.Mistakes(mistakeTools)
	path := filepath.Join(b.TempDir(), "big.gram")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, format := range diagFormats {
		b.Run("format="+format, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			var peak, live uint64
			for b.Loop() {
				runtime.GC()
				stop := sampleHeap()
				code := Do([]string{"check", "-e", "--format", format, path}, nil, io.Discard, io.Discard)
				p, l := stop()
				peak, live = max(peak, p), max(live, l)
				if code != ExitProblem {
					b.Fatalf("exit status %d, want %d", code, ExitProblem)
				}
			}
			b.ReportMetric(float64(peak)/float64(len(src)), "peak-heap-B/B")
			b.ReportMetric(float64(live)/float64(len(src)), "live-heap-B/B")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// sampleHeap samples the heap until the function it returns is called,
// which returns the most bytes of heap objects seen and the largest live
// heap a garbage collection marked.
func sampleHeap() (stop func() (peak, live uint64)) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(samples)
	startLive := samples[1].Value.Uint64()
	var peak, live uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(samples)
			peak = max(peak, samples[0].Value.Uint64())
			if l := samples[1].Value.Uint64(); l != startLive {
				live = max(live, l)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return peak, live
	}
}
