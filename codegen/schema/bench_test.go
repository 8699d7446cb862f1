package schema

import (
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax"
)

// BenchmarkSchema emits 10,000 tools (gramgen.Package(10000, 100), checked
// once outside the timer) for every target. Bytes/s is output bytes.
func BenchmarkSchema(b *testing.B) {
	// Parallel to codegen/golang's benchPackage: the same parse and check
	// of a gramgen package, repeated because test code is not shared
	// across packages and neither check nor gramgen has a use for it.
	var srcs []syntax.Source
	for name, src := range gramgen.Package(10000, 100) {
		srcs = append(srcs, syntax.Source{Name: name, Src: src})
	}
	var files []check.SourceFile
	for _, r := range syntax.ParseFiles(srcs) {
		files = append(files, check.SourceFile{AST: r.File, Diags: r.Diags})
	}
	pkg, ds := check.CheckSources("", files) // the checker takes files in order of name
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	if len(pkg.Tools) != 10000 {
		b.Fatalf("%d tools", len(pkg.Tools))
	}
	for _, target := range Targets() {
		b.Run(string(target), func(b *testing.B) {
			out, err := Emit(pkg.Tools, target)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Emit(pkg.Tools, target); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
