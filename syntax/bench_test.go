package syntax

import (
	"fmt"
	"github.com/gramc-dev/gramc/syntax/reftree"
	"io"
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
		_, diags := ParseFile("bench.gram", src)
		if diags.HasErrors() {
			b.Fatal(diags.Err())
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(src)), "alloc/input-byte")
	b.ReportMetric(float64(liveBytes(src))/float64(len(src)), "live/input-byte")
}

// liveBytes returns how many heap bytes one parse of src keeps alive (the
// tree and what it references).
func liveBytes(src []byte) int64 {
	var before, after runtime.MemStats
	// Two collections empty the arena pool (sync.Pool keeps a victim
	// cache for one cycle), so the tree's chunks are counted.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, _ := ParseFile("bench.gram", src)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(f)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// BenchmarkParseFiles parses a generated package of 10,000 tools in 8 files
// (about 5 MB) with ParseFiles, which parses files concurrently.
func BenchmarkParseFiles(b *testing.B) {
	files := gramgen.Package(10000, 8)
	var srcs []Source
	total := 0
	for name, src := range files {
		srcs = append(srcs, Source{Name: name, Src: src})
		total += len(src)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range ParseFiles(srcs) {
			if r.Diags.HasErrors() {
				b.Fatal(r.Diags.Err())
			}
		}
	}
}

// BenchmarkWriteJSON: `gramc parse --json`'s tree writer on documents of
// 200, 2,000 and 20,000 tools (1x, 10x, 100x). Time and allocation per
// input byte stay flat, and the output is streamed (issue 12.7: the whole
// JSON was built in memory, 2.2 GB for the 4.7 MB document).
func BenchmarkWriteJSON(b *testing.B) {
	for _, n := range []int{200, 2_000, 20_000} {
		src := gramgen.Document(n)
		f, ds := ParseFile("bench.gram", src)
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if err := reftree.WriteJSON(io.Discard, f, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
