package typescript

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/internal/gentest"
	"github.com/gramc-dev/gramc/codegen/internal/hostile"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/gramgen"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/syntax"
)

// testPackage is one package the tests generate TypeScript for.
type testPackage struct {
	id   string // a file-name-safe identifier, e.g. "examples_weather"
	path string // where it came from
	pkg  *check.Package
}

// checkSource checks one gram document as a package.
func checkSource(t testing.TB, name string, src []byte) *check.Package {
	t.Helper()
	f, ds := syntax.ParseFile(name, src)
	pkg, cds := check.CheckSources("", []check.SourceFile{{AST: f, Diags: ds}})
	if cds.HasErrors() {
		t.Fatalf("%s does not check: %v", name, diag.ErrorList(cds.Errors()))
	}
	return pkg
}

// randomPackages are n packages of gramgen.Random, seeds 1..n.
func randomPackages(t testing.TB, n int) []testPackage {
	var out []testPackage
	for seed := int64(1); seed <= int64(n); seed++ {
		id := fmt.Sprintf("random_%03d", seed)
		out = append(out, testPackage{id: id, path: "gramgen.Random(" + fmt.Sprint(seed) + ")", pkg: checkSource(t, id+".gram", gramgen.Random(seed))})
	}
	return out
}

// examplePackages are the packages that check clean of examples/,
// testdata/examples/, testdata/check/ and codegen/golang's hostile and
// typed inputs (the Go generator's corpus).
func examplePackages(t testing.TB) []testPackage {
	t.Helper()
	paths := gentest.ExampleDirs(filepath.Join("..", ".."))
	for _, root := range []string{filepath.Join("..", "..", "testdata", "examples"), filepath.Join("..", "..", "testdata", "check")} {
		paths = append(paths, gentest.GramFiles(root)...)
	}
	hostileFiles, _ := filepath.Glob(filepath.Join("..", "golang", "testdata", "hostile", "*.gram"))
	paths = append(paths, hostileFiles...)
	paths = append(paths, filepath.Join("..", "golang", "testdata", "typed"))
	sort.Strings(paths)
	var out []testPackage
	for _, p := range paths {
		rel := strings.TrimPrefix(filepath.ToSlash(p), "../../")
		rel = strings.TrimPrefix(rel, "../")
		id := strings.NewReplacer("/", "_", ".gram", "", "-", "_", ".", "_").Replace(rel)
		pkgs, diags, err := load.Packages([]string{p}, nil)
		if err != nil || diags.HasErrors() || len(pkgs) != 1 {
			continue // only the packages that check clean
		}
		out = append(out, testPackage{id: id, path: rel, pkg: pkgs[0]})
	}
	if len(out) < 10 {
		t.Fatalf("only %d example packages found", len(out))
	}
	return out
}

// hostilePackages are the shared hostile corpus's models.
func hostilePackages() []testPackage {
	var out []testPackage
	models := hostile.Models()
	names := make([]string, 0, len(models))
	for n := range models {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, testPackage{id: "hostile_" + n, path: "hostile.Models()[" + n + "]", pkg: models[n]})
	}
	return out
}

func TestRandomPackagesCheck(t *testing.T) {
	pkgs := randomPackages(t, 300)
	types, tools := 0, 0
	for _, p := range pkgs {
		types += len(p.pkg.Types) + len(p.pkg.Enums)
		tools += len(p.pkg.Tools)
		if _, err := Generate(Request{Package: p.pkg}); err != nil {
			t.Errorf("%s: %v", p.id, err)
		}
	}
	t.Logf("300 random packages: %d types and enums, %d tools", types, tools)
}
