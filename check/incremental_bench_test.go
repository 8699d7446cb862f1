package check

import (
	"bytes"
	"maps"
	"slices"
	"testing"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax"
)

// benchSources parses gramgen.Package(tools, files) into SourceFiles in
// file-name order.
func benchSources(tb testing.TB, tools, files int) ([]SourceFile, int64) {
	tb.Helper()
	pkg := gramgen.Package(tools, files)
	var out []SourceFile
	var size int64
	for _, name := range slices.Sorted(maps.Keys(pkg)) {
		src := pkg[name]
		f, ds := syntax.ParseFile(name, src)
		if len(ds) > 0 {
			tb.Fatalf("%s: %v", name, ds)
		}
		out = append(out, SourceFile{AST: f, Diags: ds})
		size += int64(len(src))
	}
	return out, size
}

// BenchmarkCheckSources checks the parsed files of gramgen.Package(10000,
// 100) (about 4.2 MB): CheckSources alone, as the language server calls
// it when no cache is kept.
// Run: go test ./check -run '^$' -bench BenchmarkCheckSources -benchmem
func BenchmarkCheckSources(b *testing.B) {
	files, size := benchSources(b, 10000, 100)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pkg, ds := CheckSources("pkg", files)
		if len(ds) > 0 || len(pkg.Tools) != 10000 {
			b.Fatalf("%d tools, diagnostics %v", len(pkg.Tools), ds)
		}
	}
}

// BenchmarkRecheckOneFile is a language server's re-check after an edit:
// in gramgen.Package(10000, 100), one file of 100 tools changes (a tool's
// description, alternately), is parsed again, and the package is checked
// through a Cache that holds the previous check. Bytes are the changed
// file's. tools_000.gram also declares the package's types and enums: an
// edit to a tool after them leaves them as they were; an edit to the
// enum Unit's description re-lowers the tools that use Unit (a quarter);
// made longer, it moves the types after it, and the tools that use them
// are relocated (pointed to the moved values) rather than lowered again.
// Run: go test ./check -run '^$' -bench BenchmarkRecheckOneFile -benchmem
func BenchmarkRecheckOneFile(b *testing.B) {
	for _, bc := range []struct {
		name     string
		at       int
		old, new string
		last     bool // edit the last occurrence of old
		reused   int
	}{
		{"file=tools_050.gram", 50, "(variant ", "(edited variant ", true, 9900},
		{"file=tools_000.gram", 0, "(variant ", "(edited variant ", true, 9900},
		{"file=tools_000.gram/enum", 0, `"Temperature unit"`, `"Temperature Unit"`, false, 10000 - 100 - 2475},
		// Longer: the types after Unit move (their users are relocated).
		{"file=tools_000.gram/enum-longer", 0, `"Temperature unit"`, `"Temperature units"`, false, 10000 - 100 - 2475},
	} {
		files, _ := benchSources(b, 10000, 100)
		name, src := files[bc.at].AST.Name, []byte(files[bc.at].AST.Source().Text())
		b.Run(bc.name, func(b *testing.B) {
			// (Run calls this again with a larger b.N: start afresh.)
			files[bc.at] = SourceFile{AST: parsed(b, name, src)}
			i := bytes.Index(src, []byte(bc.old))
			if bc.last {
				i = bytes.LastIndex(src, []byte(bc.old))
			}
			edited := slices.Concat(src[:i], []byte(bc.new), src[i+len(bc.old):])
			srcs := [2][]byte{src, edited}
			var k Cache
			if _, ds := k.Check("pkg", files); len(ds) > 0 {
				b.Fatal(ds)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				src := srcs[(i+1)%2]
				f, ds := syntax.ParseFile(name, src)
				files[bc.at] = SourceFile{AST: f, Diags: ds}
				pkg, ds := k.Check("pkg", files)
				if len(ds) > 0 || len(pkg.Tools) != 10000 {
					b.Fatalf("%d tools, diagnostics %v", len(pkg.Tools), ds)
				}
			}
			b.StopTimer()
			if k.reusedTools != bc.reused {
				b.Fatalf("reused %d tools, want %d", k.reusedTools, bc.reused)
			}
		})
	}
}

func parsed(tb testing.TB, name string, src []byte) *ast.File {
	f, ds := syntax.ParseFile(name, src)
	if len(ds) > 0 {
		tb.Fatal(ds)
	}
	return f
}
