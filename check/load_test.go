package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGramForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"(name: Text) --> IO Text", "(name::String)==>(::String)"},
		{"  (a: Int) -> (b: Double) -> Maybe Bool", "(a::Integer)==>(b::Number)==>(::Boolean)"},
		{"(city: String) ==> Report", "(city::String)==>(::Report)"},
		{"garbage", "(name::String)==>(::String)"},
	} {
		if got := gramForm(tc.in); got != tc.want {
			t.Errorf("gramForm(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLoadPatterns(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tool := func(name string) string {
		return "[" + name + ":Tool {description: \"d\"} | (x::String)==>(::String)]\n"
	}
	write("a/one.gram", tool("one"))
	write("a/two.gram", tool("two"))
	write("a/b/three.gram", tool("three"))
	write("a/testdata/skip.gram", "[broken")
	write("a/_skip/skip.gram", "[broken")
	write("a/notes.txt", "not gram")
	write("empty/readme.txt", "")

	count := func(paths ...string) (pkgs, tools int, err error) {
		ps, ds, err := Load(paths)
		for _, d := range ds {
			t.Errorf("%v: unexpected %s", paths, d.Error())
		}
		for _, p := range ps {
			tools += len(p.Tools)
		}
		return len(ps), tools, err
	}
	if p, n, err := count(filepath.Join(dir, "a")); err != nil || p != 1 || n != 2 {
		t.Errorf("dir: %d packages, %d tools, %v", p, n, err)
	}
	if p, n, err := count(filepath.Join(dir, "a") + "/..."); err != nil || p != 2 || n != 3 {
		t.Errorf("walk: %d packages, %d tools, %v", p, n, err)
	}
	if p, n, err := count(filepath.Join(dir, "a/one.gram"), filepath.Join(dir, "a/b/three.gram")); err != nil || p != 1 || n != 2 {
		t.Errorf("named files: %d packages, %d tools, %v", p, n, err)
	}
	// The same package or file named twice, spelt differently, is loaded
	// once (not reported as declaring everything twice).
	if p, n, err := count(filepath.Join(dir, "a"), filepath.Join(dir, "a")+"/", filepath.Join(dir, "a")+"/./..."); err != nil || p != 2 || n != 3 {
		t.Errorf("dir twice: %d packages, %d tools, %v", p, n, err)
	}
	if p, n, err := count(filepath.Join(dir, "a/one.gram"), filepath.Join(dir, "a/./one.gram")); err != nil || p != 1 || n != 1 {
		t.Errorf("file twice: %d packages, %d tools, %v", p, n, err)
	}
	// A symbolic link to a directory is followed when it is the root of a
	// dir/... pattern, as the go command does.
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "link")); err == nil {
		if p, n, err := count(filepath.Join(dir, "link") + "/..."); err != nil || p != 2 || n != 3 {
			t.Errorf("walk from a symlink: %d packages, %d tools, %v", p, n, err)
		}
	}
	if _, _, err := Load([]string{filepath.Join(dir, "nosuch")}); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("missing path: err = %v", err)
	}
	if _, _, err := Load([]string{filepath.Join(dir, "empty")}); err == nil || !strings.Contains(err.Error(), "no .gram files") {
		t.Errorf("empty dir: err = %v", err)
	}
	if ps, _, err := Load([]string{filepath.Join(dir, "empty") + "/..."}); err != nil || len(ps) != 0 {
		t.Errorf("empty walk: %d, %v", len(ps), err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok || u.Unwrap() == nil {
			return err
		}
		err = u.Unwrap()
	}
}

func TestLoadSources(t *testing.T) {
	pkg, ds := LoadSources(map[string][]byte{
		"b.gram": []byte("[agent:Agent {instruction: \"Help\", model: \"OpenAI/gpt-4o-mini\"} | greet]\n"),
		"a.gram": []byte("[greet:Tool {description: \"Greets\"} | (name::String)==>(::String)]\n"),
	})
	if len(ds) != 0 {
		t.Fatalf("unexpected diagnostics: %v", ds)
	}
	if len(pkg.Files) != 2 || pkg.Files[0].Name != "a.gram" || pkg.Files[1].Name != "b.gram" {
		t.Fatalf("files not in sorted order: %v", pkg.Files)
	}
	if len(pkg.Agents) != 1 || len(pkg.Agents[0].Tools) != 1 || pkg.Agents[0].Tools[0] != pkg.Tools[0] {
		t.Fatalf("the agent in b.gram does not resolve the tool in a.gram")
	}

	// A file with a syntax error is reported; the other is still checked.
	_, ds = LoadSources(map[string][]byte{
		"bad.gram":  []byte("[oops:Tool {description: \"x\"} |\n"),
		"good.gram": []byte("[t:Tool {description: \"d\"} | (x::Strng)==>(::String)]\n"),
	})
	var syntaxErr, typeErr bool
	for _, d := range ds {
		syntaxErr = syntaxErr || (d.Range.File == "bad.gram" && d.Code == CodeSyntax)
		typeErr = typeErr || (d.Range.File == "good.gram" && d.Code == CodeUnknownType)
	}
	if !syntaxErr || !typeErr {
		t.Fatalf("want a syntax error in bad.gram and unknown-type in good.gram, got %v", ds)
	}
}
