package golang

import (
	"testing"

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

// benchPackage parses and checks gramgen.Package(nTools, nFiles) as
// codegen/schema's BenchmarkSchema does; kept apart because a shared helper
// in internal/gramgen would import syntax, whose own tests import gramgen.
func benchPackage(tb testing.TB, nTools, nFiles int) *check.Package {
	tb.Helper()
	var srcs []syntax.Source
	for name, src := range gramgen.Package(nTools, nFiles) {
		srcs = append(srcs, syntax.Source{Name: name, Src: src})
	}
	var files []check.SourceFile
	for _, r := range syntax.ParseFiles(srcs) {
		files = append(files, check.SourceFile{AST: r.File, Diags: r.Diags})
	}
	pkg, diags := check.CheckSources("", files) // the checker takes files in order of name
	if diags.HasErrors() {
		tb.Fatal(diags.Err())
	}
	return pkg
}
