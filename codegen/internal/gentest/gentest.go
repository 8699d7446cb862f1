// Package gentest is what the code generators' tests share
// (codegen/golang, codegen/typescript, and codegen/schema's benchmark): the benchmark package, where the
// example packages are, the golden archive of a generation with its
// warnings, and the check of the collision warnings. Only tests import it.
package gentest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax"
)

// Package parses and checks gramgen.Package(nTools, nFiles), the
// generators' benchmark package (codegen/schema's BenchmarkSchema reads
// the same). It lives here, not in internal/gramgen, because gramgen
// importing syntax would make syntax's own tests, which import gramgen, a
// cycle.
func Package(tb testing.TB, nTools, nFiles int) *check.Package {
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

// Bench benchmarks gen, a generator that returns how many bytes it wrote,
// on Package(b, 10000, 100), checked once outside the timer: the
// generators' BenchmarkGen, whose bytes per op are what gen writes.
func Bench(b *testing.B, gen func(*check.Package) (int, error)) {
	pkg := Package(b, 10000, 100)
	n, err := gen(pkg)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := gen(pkg); err != nil {
			b.Fatal(err)
		}
	}
}

// ExampleDirs are the directories of repo's examples/ that hold .gram
// files (repo is the module's root, relative to the test's directory).
func ExampleDirs(repo string) []string {
	var out []string
	dirs, _ := filepath.Glob(filepath.Join(repo, "examples", "*"))
	for _, d := range dirs {
		if grams, _ := filepath.Glob(filepath.Join(d, "*.gram")); len(grams) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// GramFiles are the .gram files below root.
func GramFiles(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".gram") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// Golden adds the warnings a generation reported to ar, as the file
// "diagnostics" (when there are any), and compares ar with the golden file
// at path (internal/golden: GRAMC_UPDATE=1 rewrites it).
func Golden(t *testing.T, path string, ar *txtar.Archive, warnings diag.Diagnostics) {
	t.Helper()
	if len(warnings) > 0 {
		var b strings.Builder
		for _, d := range warnings {
			b.WriteString(filepath.ToSlash(d.Error()))
			b.WriteByte('\n')
		}
		ar.Files = append(ar.Files, txtar.File{Name: "diagnostics", Data: []byte(b.String())})
	}
	golden.File(t, path, txtar.Format(ar))
}

// Collisions checks that every warning is a gen-name-collision warning
// and that each of want is in one's summary.
func Collisions(t *testing.T, warnings diag.Diagnostics, want ...string) {
	t.Helper()
	var msgs []string
	for _, w := range warnings {
		if w.Code != diag.CodeGenNameCollision || w.Severity != diag.Warning {
			t.Errorf("unexpected diagnostic %v", w)
		}
		msgs = append(msgs, w.Summary)
	}
	all := strings.Join(msgs, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no collision warning mentions %s:\n%s", w, all)
		}
	}
}
