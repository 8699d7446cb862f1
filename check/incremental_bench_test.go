package check

import (
	"bytes"
	"maps"
	"slices"
	"testing"

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
		out = append(out, SourceFile{Src: src, AST: f, Diags: ds})
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
// file's. tools_000.gram also declares the package's types and enums (an
// edit after them leaves them as they were).
// Run: go test ./check -run '^$' -bench BenchmarkRecheckOneFile -benchmem
func BenchmarkRecheckOneFile(b *testing.B) {
	for _, at := range []int{50, 0} {
		files, _ := benchSources(b, 10000, 100)
		name := files[at].AST.Name
		b.Run("file="+name, func(b *testing.B) {
			// The last tool's description: after the declarations.
			src := files[at].Src
			i := bytes.LastIndex(src, []byte("(variant "))
			edited := slices.Concat(src[:i], []byte("(edited variant "), src[i+len("(variant "):])
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
				files[at] = SourceFile{Src: src, AST: f, Diags: ds}
				pkg, ds := k.Check("pkg", files)
				if len(ds) > 0 || len(pkg.Tools) != 10000 {
					b.Fatalf("%d tools, diagnostics %v", len(pkg.Tools), ds)
				}
			}
			b.StopTimer()
			if k.reusedTools != 9900 {
				b.Fatalf("reused %d tools, want 9900", k.reusedTools)
			}
		})
	}
}
