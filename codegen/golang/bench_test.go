package golang

import (
	"testing"

	"github.com/gramc-dev/gramc/codegen/internal/gentest"
)

// BenchmarkGen generates Go for a package of 10,000 tools in 100 files
// (internal/gramgen), checked once outside the timer. Bytes are the
// generated Go source.
func BenchmarkGen(b *testing.B) {
	pkg := gentest.Package(b, 10000, 100)
	files, err := Generate(Request{Package: pkg})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(files[0].Contents)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Generate(Request{Package: pkg}); err != nil {
			b.Fatal(err)
		}
	}
}
