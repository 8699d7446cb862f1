package check

import (
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/syntax"
)

// testPackages are the packages of the repository's gram files: each
// file of testdata/check alone, and every directory of .gram files under
// testdata/check, testdata/examples, testdata/conformance and examples
// (testdata included), as a package. Values are file names to contents.
func testPackages(t *testing.T) map[string]map[string][]byte {
	t.Helper()
	pkgs := map[string]map[string][]byte{}
	read := func(path string) []byte {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	for _, root := range []string{"../testdata/check", "../testdata/examples", "../testdata/conformance", "../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".gram") {
				return err
			}
			if filepath.Dir(path) == "../testdata/check" {
				pkgs[path] = map[string][]byte{path: read(path)}
			}
			dir := filepath.Dir(path)
			if pkgs[dir+"/"] == nil {
				pkgs[dir+"/"] = map[string][]byte{}
			}
			pkgs[dir+"/"][path] = read(path)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(pkgs) < 60 {
		t.Fatalf("found %d packages: the test data moved?", len(pkgs))
	}
	return pkgs
}

// parseSources parses files (name to contents) as package load does.
func parseSources(files map[string][]byte) []SourceFile {
	var srcs []syntax.Source
	for _, name := range slices.Sorted(maps.Keys(files)) {
		srcs = append(srcs, syntax.Source{Name: name, Src: files[name]})
	}
	var out []SourceFile
	for _, r := range syntax.ParseFiles(srcs) {
		out = append(out, SourceFile{AST: r.File, Diags: r.Diags})
	}
	return out
}

// diagnoseAgrees checks that Diagnose reports exactly what CheckSources
// does for files, and leaves each file its name and comments.
func diagnoseAgrees(t *testing.T, name string, files map[string][]byte) diag.Diagnostics {
	t.Helper()
	want, wantDs := CheckSources("pkg", parseSources(files))
	got, gotDs := Diagnose("pkg", parseSources(files))
	if !reflect.DeepEqual(wantDs, gotDs) {
		t.Fatalf("%s: diagnostics differ (-CheckSources +Diagnose):\n%s", name, cmp.Diff(wantDs, gotDs))
	}
	if got.Dir != want.Dir || got.Name != want.Name || len(got.Files) != len(want.Files) {
		t.Fatalf("%s: Diagnose's package is %q %q with %d files, want %q %q with %d", name, got.Dir, got.Name, len(got.Files), want.Dir, want.Name, len(want.Files))
	}
	for i, f := range got.Files {
		if f.Name != want.Files[i].Name || commentsText(f) != commentsText(want.Files[i]) {
			t.Fatalf("%s: file %d is %s with %d comments, want %s with %d", name, i, f.Name, len(f.Comments), want.Files[i].Name, len(want.Files[i].Comments))
		}
		if f.Patterns != nil || f.Header != nil {
			t.Fatalf("%s: Diagnose kept the patterns of %s", name, f.Name)
		}
	}
	if got.Tools != nil || got.Agents != nil || got.Types != nil || got.Enums != nil || got.Tests != nil {
		t.Fatalf("%s: Diagnose's package holds declarations", name)
	}
	// What gramc check prints: the same after the suppressions too.
	if w, g := Suppress(want.Files, wantDs, Codes()), Suppress(got.Files, gotDs, Codes()); !reflect.DeepEqual(w, g) {
		t.Fatalf("%s: suppressed diagnostics differ:\n%s", name, cmp.Diff(w, g))
	}
	return gotDs
}

// commentsText lists f's comments with their positions.
func commentsText(f *ast.File) string {
	var b strings.Builder
	for _, c := range f.Comments {
		fmt.Fprintf(&b, "%v-%v %q\n", c.Pos(), c.End(), c.Text)
	}
	return b.String()
}

// inCheckModes runs test sequentially, with tools lowered ahead on three
// goroutines in batches of two, and so again with a did-you-mean budget
// that runs out within most packages.
func inCheckModes(t *testing.T, test func(t *testing.T)) {
	t.Run("sequential", func(t *testing.T) {
		defer func(m int) { parallelMin = m }(parallelMin)
		parallelMin = math.MaxInt
		test(t)
	})
	parallel := func(t *testing.T) func() {
		m, w, b := parallelMin, parallelWorkers, aheadBatch
		parallelMin, parallelWorkers, aheadBatch = 1, 3, 2
		return func() { parallelMin, parallelWorkers, aheadBatch = m, w, b }
	}
	t.Run("parallel", func(t *testing.T) {
		defer parallel(t)()
		test(t)
	})
	t.Run("parallel-small-budget", func(t *testing.T) {
		defer parallel(t)()
		defer func(b int) { suggestBudget = b }(suggestBudget)
		suggestBudget = 30
		test(t)
	})
}

// TestDiagnoseAgrees: Diagnose (gramc check's lean check) reports exactly
// the diagnostics of CheckSources, in the same order, for every package
// of the repository's test data and examples, sequentially, in parallel
// and with the did-you-mean budget running out.
func TestDiagnoseAgrees(t *testing.T) {
	pkgs := testPackages(t)
	inCheckModes(t, func(t *testing.T) {
		for _, name := range slices.Sorted(maps.Keys(pkgs)) {
			diagnoseAgrees(t, name, pkgs[name])
		}
	})
}

// TestDiagnoseAgreesGenerated: the same for generated packages: tools of
// one mistake each (gramgen.Mistakes), a clean package with agents, and
// mistakes with a test that reads the tools' parameters, with tools
// declared twice, inline in agents and listed by them.
func TestDiagnoseAgreesGenerated(t *testing.T) {
	withTest := string(gramgen.Mistakes(40)) + `
[greet:Tool {description: "d"} | (name::String)==>(::String)]
[t000003:Tool {description: "d"} | (x::Strin)==>(::String)]
[t000004:Tool {description: "other"} | (x::Strin)==>(::String)]
[a:Agent {instruction: "x", model: "OpenAI/gpt-4o-mini"} | greet, t000001, t00002, [t000005:Tool {description: "d"} | (x::Strin)==>(::String)], [t000006:Tool {description: "e"} | (y::Strin)==>(::String)]]
[check:Test {agent: a, input: "hi"} | (::Call {tool: greet, args: {name: 3}}), (::Call {tool: t000001, args: {x: "a", z: 1}})]
`
	cases := map[string]map[string][]byte{
		"mistakes":  {"big.gram": gramgen.Mistakes(700)},
		"clean":     gramgen.Package(300, 3),
		"with-test": {"a.gram": []byte(withTest)},
		"no-test":   {"a.gram": []byte(strings.ReplaceAll(withTest, "[check:Test", "[check:Tst"))},
	}
	inCheckModes(t, func(t *testing.T) {
		for name, files := range cases {
			ds := diagnoseAgrees(t, name, files)
			if name == "mistakes" && len(ds) != 700 {
				t.Fatalf("%d diagnostics, want 700", len(ds))
			}
		}
	})
}

// TestParallelSuggestBudgetExact: tools lowered ahead in parallel report
// what a sequential check does when the did-you-mean budget runs out
// within a batch, a goroutine's share or the package (the check no longer
// checks the package twice for it).
func TestParallelSuggestBudgetExact(t *testing.T) {
	defer func(b int) { suggestBudget = b }(suggestBudget)
	files := map[string][]byte{"a.gram": gramgen.Mistakes(500)}
	for _, budget := range []int{0, 11, 100, 1000, 2749, 2750, 2760, 5500, 1 << 30} {
		suggestBudget = budget
		_, want := sequential(func() (*Package, diag.Diagnostics) { return CheckSources("pkg", parseSources(files)) })
		for _, batch := range []int{1, 7, 64, 8192} {
			func() {
				defer func(m, w, b int) { parallelMin, parallelWorkers, aheadBatch = m, w, b }(parallelMin, parallelWorkers, aheadBatch)
				parallelMin, parallelWorkers, aheadBatch = 1, 3, batch
				_, got := CheckSources("pkg", parseSources(files))
				if !reflect.DeepEqual(want, got) {
					t.Fatalf("budget %d, batch %d: parallel differs from sequential:\n%s", budget, batch, cmp.Diff(want, got))
				}
			}()
		}
		n := 0
		for _, d := range want {
			if d.Suggestion != "" {
				n++
			}
		}
		t.Logf("budget %d: %d of %d suggest", budget, n, len(want))
	}
}

// FuzzDiagnoseAgrees: Diagnose reports exactly what CheckSources reports
// for any file, alone or in a package with the cache tests' files,
// sequentially or on three goroutines in batches of two, with the whole
// did-you-mean budget or a small one.
func FuzzDiagnoseAgrees(f *testing.F) {
	for i, seed := range readTestdata(f, "../testdata/check/*.gram") {
		f.Add(uint8(i), seed.src)
	}
	f.Add(uint8(3), gramgen.Mistakes(20))
	f.Fuzz(func(t *testing.T, mode uint8, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		if mode&1 != 0 {
			defer func(m, w, b int) { parallelMin, parallelWorkers, aheadBatch = m, w, b }(parallelMin, parallelWorkers, aheadBatch)
			parallelMin, parallelWorkers, aheadBatch = 1, 3, 2
		}
		if mode&2 != 0 {
			defer func(b int) { suggestBudget = b }(suggestBudget)
			suggestBudget = 40
		}
		files := map[string][]byte{"x.gram": src}
		if mode&4 != 0 {
			files["a_types.gram"] = []byte(cacheTypes)
			files["b_tools.gram"] = []byte(cacheTools)
			files["c_agent.gram"] = []byte(cacheAgent)
			files["d_more.gram"] = []byte(cacheMore)
		}
		diagnoseAgrees(t, "fuzzed", files)
	})
}
