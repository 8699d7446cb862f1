package syntax

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax/reftree"
)

// BenchmarkParse parses a generated document of 20,000 tools (about 4.7 MB).
// Besides bytes/s and allocations it reports allocated bytes per input byte
// (alloc/input-byte) and the live heap the parsed tree keeps per input byte
// (live/input-byte), the figures the memory goal bounds.
func BenchmarkParse(b *testing.B) {
	src := gramgen.Document(20000)
	parseLoop(b, src, func() {
		_, diags := ParseFile("bench.gram", src)
		if diags.HasErrors() {
			b.Fatal(diags.Err())
		}
	})
	b.ReportMetric(float64(liveBytes(src))/float64(len(src)), "live/input-byte")
}

// parseLoop runs parse, a parse of src, b.N times and reports bytes/s,
// allocations and the bytes allocated per input byte (alloc/input-byte).
func parseLoop(b *testing.B, src []byte, parse func()) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		parse()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(src)), "alloc/input-byte")
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

// BenchmarkParseRecovery parses the BenchmarkParse document with junk
// lines inserted before top-level patterns: none, 1% and 10% of its lines.
// Each junk line is a syntax error the parser recovers from at the next
// pattern: half of them a "#" comment (a lexical error), half stray words
// (a grammar error); in the "words" cases all are stray words. Recovery is
// linear when ns per byte and alloc/input-byte stay close to the clean
// document's; "patterns" is how many top-level patterns the tree holds
// (20,203 in the document).
func BenchmarkParseRecovery(b *testing.B) {
	clean := gramgen.Document(20000)
	for _, c := range []struct {
		pct   int
		words bool
	}{{0, false}, {1, false}, {10, false}, {1, true}, {10, true}} {
		src, junk := withJunkLines(clean, c.pct, c.words)
		name := fmt.Sprintf("junk=%d%%", c.pct)
		if c.words {
			name += ",words"
		}
		b.Run(name, func(b *testing.B) {
			var f *ast.File
			parseLoop(b, src, func() {
				var ds diag.Diagnostics
				f, ds = ParseFile("junk.gram", src)
				if (junk > 0) != ds.HasErrors() {
					b.Fatalf("%d junk lines, diagnostics: %v", junk, ds.Err())
				}
			})
			b.ReportMetric(float64(len(f.Patterns)), "patterns")
		})
	}
}

// withJunkLines returns src with a junk line before enough of its
// top-level patterns (lines starting with "[" or "(") that pct percent of
// the result's lines are junk, and how many it inserted: "# junk line N"
// and "junk line N" in turn, or only the latter with words. The same
// documents are written by the awk recipe in docs/performance.md for
// timing `gramc parse`.
func withJunkLines(src []byte, pct int, words bool) ([]byte, int) {
	if pct == 0 {
		return src, 0
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	patterns := 0
	for _, l := range lines {
		if len(l) > 0 && (l[0] == '[' || l[0] == '(') {
			patterns++
		}
	}
	want := bytes.Count(src, []byte("\n")) * pct / (100 - pct) // junk lines: pct% of the total
	var out bytes.Buffer
	n, seen := 0, 0
	for _, l := range lines {
		if len(l) > 0 && (l[0] == '[' || l[0] == '(') {
			seen++
			// Spread the junk evenly over the patterns.
			if n < want && seen*want/patterns > n {
				if n%2 == 0 && !words {
					fmt.Fprintf(&out, "# junk line %d\n", n)
				} else {
					fmt.Fprintf(&out, "junk line %d\n", n)
				}
				n++
			}
		}
		out.Write(l)
	}
	return out.Bytes(), n
}
