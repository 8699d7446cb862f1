package load

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/gramgen"
)

// TestDiagnosticsOnlyAgrees: Packages with Config.DiagnosticsOnly, which
// reads, parses and checks each package on its own, reports exactly the
// diagnostics of Packages, in the same order, and leaves each package
// its files' names and comments (what gramc check scopes warnings by):
// the repository's examples and test data, and a tree of generated
// packages with a syntax error, an unreadable file and a link to nothing.
func TestDiagnosticsOnlyAgrees(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, src []byte) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/mistakes.gram", gramgen.Mistakes(600))
	write("a/more.gram", append([]byte("// gramc:ignore unknown-property -- c\n[w:Tool {description: \"d\", colour: 1} | (x::String)==>(::String)]\n"), gramgen.Mistakes(3)...))
	write("b/broken.gram", []byte("[x:Tool {description: \"d\"} | (a::Strin)==>(::String)]\n[broken\n[y:Tool | (b::Strng)==>(::String)]\n"))
	write("b/ok.gram", []byte("[z:Tool {description: \"d\"} | (a::Integr)==>(::String)]\n"))
	for name, src := range gramgen.Package(300, 3) {
		write("c/"+name, src)
	}
	write("d/fine.gram", []byte("[d:Tool {description: \"d\"} | (a::String)==>(::String)]\n"))
	if err := os.Symlink(filepath.Join(dir, "nowhere.gram"), filepath.Join(dir, "d/dangling.gram")); err != nil {
		t.Fatal(err)
	}
	for _, patterns := range [][]string{
		{dir + "/..."},
		{filepath.Join(dir, "a"), filepath.Join(dir, "b", "ok.gram"), filepath.Join(dir, "b", "broken.gram")},
		{"../examples/...", "../testdata/check", "../testdata/examples/..."},
	} {
		wantPkgs, want, err := Packages(patterns, nil)
		if err != nil {
			t.Fatal(err)
		}
		gotPkgs, got, err := Packages(patterns, &Config{DiagnosticsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("%v: no diagnostics", patterns)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%v: diagnostics differ (-Packages +DiagnosticsOnly):\n%s", patterns, cmp.Diff(want, got))
		}
		if len(gotPkgs) != len(wantPkgs) {
			t.Fatalf("%v: %d packages, want %d", patterns, len(gotPkgs), len(wantPkgs))
		}
		for i, p := range gotPkgs {
			w := wantPkgs[i]
			if p.Dir != w.Dir || p.Name != w.Name || len(p.Files) != len(w.Files) || len(p.Tools) != 0 {
				t.Fatalf("%v: package %d is %q %q with %d files and %d tools, want %q %q with %d files", patterns, i, p.Dir, p.Name, len(p.Files), len(p.Tools), w.Dir, w.Name, len(w.Files))
			}
			if s, ws := check.Suppress(p.Files, got, check.Codes()), check.Suppress(w.Files, want, check.Codes()); !reflect.DeepEqual(s, ws) {
				t.Fatalf("%v: suppressed diagnostics differ:\n%s", patterns, cmp.Diff(ws, s))
			}
		}
	}
}
