package schema

import (
	"sort"
	"testing"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax"
)

// BenchmarkSchema emits 10,000 tools (gramgen.Package(10000, 100), checked
// once outside the timer) for every target. Bytes/s is output bytes.
func BenchmarkSchema(b *testing.B) {
	files := gramgen.Package(10000, 100)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var parsed []*ast.File
	for _, name := range names {
		f, ds := syntax.ParseFile(name, files[name])
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		parsed = append(parsed, f)
	}
	pkg, ds := check.CheckFiles("bench", parsed)
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
