package golang

import (
	"sort"
	"testing"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax"
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
	srcs := gramgen.Package(nTools, nFiles)
	names := make([]string, 0, len(srcs))
	for name := range srcs {
		names = append(names, name)
	}
	sort.Strings(names)
	var parsed []*ast.File
	for _, name := range names {
		f, diags := syntax.ParseFile(name, srcs[name])
		if diags.HasErrors() {
			tb.Fatalf("%s: %v", name, diags.Err())
		}
		parsed = append(parsed, f)
	}
	pkg, diags := check.CheckFiles("bench", parsed)
	if diags.HasErrors() {
		tb.Fatal(diags.Err())
	}
	return pkg
}
