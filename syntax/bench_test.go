package syntax

import (
	"runtime"
	"testing"

	"github.com/gramc-dev/gramc/internal/gramgen"
)

// BenchmarkParse parses a generated document of 20,000 tools (about 4.7 MB).
// Besides bytes/s and allocations it reports allocated bytes per input byte
// (alloc/input-byte) and the live heap the parsed tree keeps per input byte
// (live/input-byte), the figures the memory goal bounds.
func BenchmarkParse(b *testing.B) {
	src := gramgen.Document(20000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, diags := ParseFile("bench.gram", src)
		if diags.HasErrors() {
			b.Fatal(diags.Err())
		}
		if i == b.N-1 {
			b.StopTimer()
			runtime.ReadMemStats(&after)
			runtime.GC()
			var live runtime.MemStats
			runtime.ReadMemStats(&live)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(src)), "alloc/input-byte")
			b.ReportMetric(float64(int64(live.HeapAlloc)-int64(before.HeapAlloc))/float64(len(src)), "live/input-byte")
			runtime.KeepAlive(f)
		}
	}
}
