package diag

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/ast"
)

// BenchmarkWriteTextOneLine: n diagnostics on one line of about 85·n bytes
// (a minified file full of mistakes), for n = 200, 2,000 and 20,000. Time
// per diagnostic stays flat: printing is linear (issue 12.3 measured 7 s
// for 20,000 before).
func BenchmarkWriteTextOneLine(b *testing.B) {
	for _, n := range []int{200, 2_000, 20_000} {
		var src strings.Builder
		ds := make(Diagnostics, 0, n)
		for i := range n {
			off := src.Len()
			fmt.Fprintf(&src, "[t%d:Tool {description: \"d\"} | (x::Strng)==>(::String)] ", i)
			col := int32(off + 1) // ASCII: characters are bytes
			ds = append(ds, &Diagnostic{Severity: Error, Code: "unknown-type", Summary: "unknown type Strng",
				Range: ast.Range{File: "a.gram", Start: ast.Pos{Offset: int32(off), Line: 1, Column: col}, End: ast.Pos{Offset: int32(off + 5), Line: 1, Column: col + 5}}})
		}
		text := []byte(src.String())
		read := func(string) ([]byte, error) { return text, nil }
		b.Run(fmt.Sprintf("diagnostics=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if err := WriteText(io.Discard, ds, TextOptions{ReadFile: read}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/diagnostic")
		})
	}
}
