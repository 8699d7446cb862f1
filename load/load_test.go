package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
		ps, ds, err := Packages(paths, nil)
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
	if _, _, err := Packages([]string{filepath.Join(dir, "nosuch")}, nil); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("missing path: err = %v", err)
	}
	if _, _, err := Packages([]string{filepath.Join(dir, "empty")}, nil); err == nil || !strings.Contains(err.Error(), "no .gram files") {
		t.Errorf("empty dir: err = %v", err)
	}
	if ps, _, err := Packages([]string{filepath.Join(dir, "empty") + "/..."}, nil); err != nil || len(ps) != 0 {
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

// Overlays replace files on disk and add files that are not there (an
// editor's unsaved buffers).
func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.gram")
	os.WriteFile(one, []byte("[one:Tool {description: \"d\"} | (x::Strng)==>(::String)]\n"), 0o644)
	cfg := &Config{Overlay: map[string][]byte{
		one:                             []byte("[one:Tool {description: \"d\"} | (x::String)==>(::String)]\n"),
		filepath.Join(dir, "new.gram"):  []byte("[two:Tool {description: \"d\"} | (x::String)==>(::String)]\n"),
		filepath.Join(dir, "other.txt"): []byte("not gram"),
	}}
	pkgs, ds, err := Packages([]string{dir}, cfg)
	if err != nil || len(ds) != 0 || len(pkgs) != 1 || len(pkgs[0].Tools) != 2 {
		t.Fatalf("overlay: %v %v %d packages", err, ds, len(pkgs))
	}
	// A file only in the overlay can be named on its own.
	pkgs, ds, err = Packages([]string{filepath.Join(dir, "new.gram")}, cfg)
	if err != nil || len(ds) != 0 || len(pkgs) != 1 || pkgs[0].Tools[0].Name != "two" {
		t.Fatalf("overlay file: %v %v", err, ds)
	}
}
