package typescript

import (
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax"
)

// BenchmarkGen generates TypeScript for a package of 10,000 tools in 100
// files (internal/gramgen), checked once outside the timer, as
// codegen/golang's BenchmarkGen does for Go. Bytes are the four generated
// files together.
func BenchmarkGen(b *testing.B) {
	pkg := benchPackage(b, 10000, 100)
	files, err := Generate(Request{Package: pkg})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, f := range files {
		n += len(f.Contents)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Generate(Request{Package: pkg}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPackage parses and checks gramgen.Package(nTools, nFiles) as
// codegen/golang's does.
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
	pkg, diags := check.CheckSources("", files)
	if diags.HasErrors() {
		tb.Fatal(diags.Err())
	}
	return pkg
}
