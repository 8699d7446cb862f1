// Package gramc_test holds the test of the module's layering: which
// package may import which.
package gramc_test

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/gramc-dev/gramc"

// layers is gramc's import order, bottom up, written once: a package may
// import packages of its own layer or of a lower one, never of a higher
// one. A pattern is a path in the module; "dir/..." is dir and everything
// below it, and the longest pattern that matches a package places it.
//
// Data flows bytes → syntax → ast → check → codegen / runtime; in imports
// ast (the tree's types) sits below syntax, which builds it. The
// commands are on top. runtime/deps_test.go holds a stronger rule this
// order cannot say: the runtime core and its clients link none of the
// compiler (ast, diag, syntax, check, load, codegen), so generated code
// links the runtime alone.
var layers = []struct {
	name     string
	packages []string
}{
	{"leaf helpers: they import no other gramc package", []string{"internal/..."}},
	{"shared data: providers, documentation pages, the tool specification type", []string{"provider", "docs", "runtime/toolspec"}},
	{"the syntax tree", []string{"ast"}},
	{"diagnostics", []string{"diag"}},
	{"the parser", []string{"syntax/..."}},
	{"the checker", []string{"check"}},
	{"the loader", []string{"load"}},
	{"emitters, gramc diff's rules, gramc.json, gramc import's reader", []string{"codegen/...", "compat", "config", "importer"}},
	{"the runtime", []string{"runtime/..."}},
	{"agents from .gram files and :Test runs, through the compiler", []string{"runtime/gramfile", "runtime/agenttest"}},
	{"the language server", []string{"lsp"}},
	{"the CLI", []string{"cli"}},
	{"commands, examples, fuzz targets, editor checks, this test", []string{"cmd/...", "examples/...", "fuzz", "editors", "."}},
}

// TestLayers runs go list on the module and fails on an import from a
// lower layer to a higher one, on a package the table does not place and
// on a table entry that places nothing. Only what a build links counts
// (a package's imports, not its tests'): a test may drive its package
// through a higher layer, as syntax's tests compare with the checker's
// view.
func TestLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	pkgs := listPackages(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; the test is broken", len(pkgs))
	}
	used := map[string]bool{}
	layerOf := map[string]int{}
	for _, p := range pkgs {
		l, pattern := place(p.rel)
		if l < 0 {
			t.Errorf("%s is in no layer: add it to the table in layers_test.go", p.rel)
			continue
		}
		used[pattern] = true
		layerOf[p.rel] = l
	}
	for _, l := range layers {
		for _, pattern := range l.packages {
			if !used[pattern] {
				t.Errorf("the table's %q places no package: remove it", pattern)
			}
		}
	}
	for _, p := range pkgs {
		from, ok := layerOf[p.rel]
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			rel, ok := relative(imp)
			if !ok {
				continue
			}
			to, ok := layerOf[rel]
			if !ok {
				t.Errorf("%s imports %s, which go list did not list", p.rel, rel)
				continue
			}
			if to > from {
				t.Errorf("%s (layer %d, %s) imports %s (layer %d, %s): an arrow from a lower layer to a higher one",
					p.rel, from, layers[from].name, rel, to, layers[to].name)
			}
		}
	}
}

// TestPlace holds the pattern matching the table relies on.
func TestPlace(t *testing.T) {
	for _, tc := range []struct {
		rel, pattern string
	}{
		{".", "."},
		{"internal/termsafe", "internal/..."},
		{"runtime", "runtime/..."},
		{"runtime/internal/sse", "runtime/..."},
		{"runtime/gramfile", "runtime/gramfile"},
		{"syntax/internal/lexical", "syntax/..."},
		{"cmd/internal/parseonly", "cmd/..."},
		{"lspx", ""},
		{"runtimex", ""},
	} {
		if _, got := place(tc.rel); got != tc.pattern {
			t.Errorf("place(%q) = %q, want %q", tc.rel, got, tc.pattern)
		}
	}
}

type pkg struct {
	ImportPath string
	Imports    []string
	rel        string
}

// listPackages returns the module's packages with their imports.
func listPackages(t *testing.T) []pkg {
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		rel, ok := relative(p.ImportPath)
		if !ok {
			t.Fatalf("go list ./... listed %s, outside %s", p.ImportPath, module)
		}
		p.rel = rel
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// relative is path inside the module ("." for its root); ok is false for
// a path outside it.
func relative(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

// place returns the layer of rel and the pattern that placed it, or -1
// and "".
func place(rel string) (int, string) {
	layer, best := -1, ""
	for i, l := range layers {
		for _, pattern := range l.packages {
			if matches(pattern, rel) && len(pattern) > len(best) {
				layer, best = i, pattern
			}
		}
	}
	return layer, best
}

func matches(pattern, rel string) bool {
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == dir || strings.HasPrefix(rel, dir+"/")
	}
	return rel == pattern
}
