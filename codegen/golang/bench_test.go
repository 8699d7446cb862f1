package golang

import (
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/gramgen"
)

// BenchmarkGen generates Go for a package of 10,000 tools in 100 files
// (internal/gramgen), checked once outside the timer. Bytes are the
// generated Go source.
func BenchmarkGen(b *testing.B) {
	pkg := benchPackage(b, 10000, 100)
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

func benchPackage(tb testing.TB, nTools, nFiles int) *check.Package {
	tb.Helper()
	pkg, diags := check.LoadSources(gramgen.Package(nTools, nFiles))
	if diags.HasErrors() {
		tb.Fatal(diags.Err())
	}
	return pkg
}
