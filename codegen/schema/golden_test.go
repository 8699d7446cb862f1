package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/gramc-dev/gramc/load"
	"github.com/rogpeppe/go-internal/txtar"
)

// The example packages: the maintained examples, the seed examples and
// this package's own provider edge cases. Every one is emitted for every
// target into a golden txtar archive (inputs + out/<target>.json +
// out/lint.txt) under testdata/golden; GRAMC_UPDATE=1 rewrites them.
var exampleRoots = []string{"../../examples", "../../testdata/examples", "testdata/examples"}

var (
	examplesOnce sync.Once
	examples     []*check.Package
	examplesErr  string
	// examplesSkipped are the example packages with check errors.
	examplesSkipped []string
)

// examplePackages returns the checked example packages (loaded once).
// A package that does not check clean (examples/testdata/broken, mistakes on
// purpose) has nothing to emit and is skipped.
func examplePackages(t *testing.T) []*check.Package {
	t.Helper()
	examplesOnce.Do(func() {
		for _, root := range exampleRoots {
			if !hasGramFiles(root) {
				continue
			}
			pkgs, _, err := load.Packages([]string{root + "/..."}, nil)
			if err != nil {
				examplesErr = err.Error()
				return
			}
			for _, pkg := range pkgs {
				_, ds, err := load.Packages([]string{pkg.Dir}, nil)
				if err != nil {
					examplesErr = err.Error()
					return
				}
				if ds.HasErrors() {
					examplesSkipped = append(examplesSkipped, pkg.Dir)
					continue
				}
				examples = append(examples, pkg)
			}
		}
	})
	if examplesErr != "" {
		t.Fatalf("loading the examples: %s", examplesErr)
	}
	return examples
}

func hasGramFiles(root string) bool {
	found := false
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error { //nolint:errcheck // absent root: none
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".gram") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// goldenName is the archive of the package in dir: the path from the
// repository root with "/" as "-".
func goldenName(dir string) string {
	abs, _ := filepath.Abs(dir)
	root, _ := filepath.Abs("../..")
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		rel = dir
	}
	return strings.ReplaceAll(filepath.ToSlash(rel), "/", "-") + ".txtar"
}

// golden renders a package's archive.
func goldenArchive(t *testing.T, pkg *check.Package) []byte {
	t.Helper()
	a := &txtar.Archive{Comment: []byte("gramc schema output for every target; regenerate with GRAMC_UPDATE=1 go test ./codegen/schema\n")}
	names, err := filepath.Glob(filepath.Join(pkg.Dir, "*.gram"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		a.Files = append(a.Files, txtar.File{Name: filepath.Base(name), Data: src})
	}
	rel := func(ds diag.Diagnostics) []byte {
		var b bytes.Buffer
		for _, d := range ds {
			c := *d
			c.Range.File = filepath.ToSlash(strings.TrimPrefix(c.Range.File, pkg.Dir+string(filepath.Separator)))
			b.WriteString(c.Error())
			b.WriteByte('\n')
		}
		return b.Bytes()
	}
	for _, target := range Targets() {
		out, err := Emit(pkg.Tools, target)
		if err != nil {
			out = rel(Lint(pkg, []Target{target}).Errors())
			if len(out) == 0 {
				t.Errorf("%s/%s: Emit failed (%v) but Lint reports no error", pkg.Dir, target, err)
			}
			out = append([]byte("# refused\n"), out...)
			var ok []*check.Tool
			for _, tool := range pkg.Tools {
				if _, err := Entry(tool, target); err == nil {
					ok = append(ok, tool)
				}
			}
			rest, err := Emit(ok, target)
			if err != nil {
				t.Errorf("%s/%s: the tools that emit alone fail together: %v", pkg.Dir, target, err)
			}
			out = append(append(out, "# the other tools\n"...), rest...)
		}
		a.Files = append(a.Files, txtar.File{Name: "out/" + string(target) + ".json", Data: out})
	}
	a.Files = append(a.Files, txtar.File{Name: "out/lint.txt", Data: rel(Lint(pkg, Targets()))})
	return txtar.Format(a)
}

// TestGolden: every example package × every target.
func TestGolden(t *testing.T) {
	pkgs := examplePackages(t)
	if len(pkgs) < 3 {
		t.Fatalf("found %d example packages, want at least 3", len(pkgs))
	}
	for _, dir := range examplesSkipped {
		if filepath.Base(dir) != "broken" {
			t.Errorf("example package %s does not check clean", dir)
		}
	}
	keep := map[string]bool{}
	for _, pkg := range pkgs {
		name := filepath.Join("testdata", "golden", goldenName(pkg.Dir))
		keep[filepath.Base(name)] = true
		golden.File(t, name, goldenArchive(t, pkg))
	}
	// No golden without its package.
	golden.Prune(t, filepath.Join("testdata", "golden", "*.txtar"), keep)
}
