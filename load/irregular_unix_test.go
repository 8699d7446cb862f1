//go:build unix

package load

import (
	"github.com/gramc-dev/gramc/diag"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// problem returns the unreadable-file diagnostic of ds for a file whose
// name ends with suffix, or nil.
func problem(ds diag.Diagnostics, suffix string) *diag.Diagnostic {
	for _, d := range ds {
		if d.Code == diag.CodeUnreadableFile && strings.HasSuffix(d.Range.File, suffix) {
			return d
		}
	}
	return nil
}

// TestIrregularFiles: every command reads regular .gram files only
// (issue 12.4): a FIFO named *.gram does not hang, a link to /dev/zero
// does not exhaust memory, and each is a diagnostic that says what the
// file is, while the rest of the package is checked (issue 20.8).
func TestIrregularFiles(t *testing.T) {
	dir := t.TempDir()
	good := "[one:Tool {description: \"d\"} | (x::String)==>(::String)]\n"
	if err := os.WriteFile(filepath.Join(dir, "one.gram"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.gram")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	pkgs, ds, err := Packages([]string{dir}, nil)
	if d := problem(ds, "fifo.gram"); err != nil || d == nil || !strings.Contains(d.Detail, "named pipe") {
		t.Errorf("a FIFO: %v %v", err, ds)
	}
	if len(pkgs) != 1 || len(pkgs[0].Tools) != 1 {
		t.Errorf("a FIFO: the rest of the package was not checked: %v", pkgs)
	}
	os.Remove(fifo)
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.gram")); err != nil {
		t.Fatal(err)
	}
	_, ds, err = Packages([]string{dir + "/..."}, nil)
	if d := problem(ds, "zero.gram"); err != nil || d == nil || !strings.Contains(d.Detail, "not a .gram file") {
		t.Errorf("a link to /dev/zero: %v %v", err, ds)
	}
	os.Remove(filepath.Join(dir, "zero.gram"))
	// A link to a regular .gram file is followed, as the go command does.
	other := filepath.Join(t.TempDir(), "real.gram")
	os.WriteFile(other, []byte(strings.ReplaceAll(good, "one", "two")), 0o644)
	if err := os.Symlink(other, filepath.Join(dir, "link.gram")); err != nil {
		t.Fatal(err)
	}
	pkgs, ds, err = Packages([]string{dir}, nil)
	if err != nil || len(ds) != 0 || len(pkgs) != 1 || len(pkgs[0].Tools) != 2 {
		t.Errorf("a link to a regular file: %v %v", err, ds)
	}
	// The size limit.
	_, ds, err = Packages([]string{dir}, &Config{MaxFileSize: 10})
	if d := problem(ds, "one.gram"); err != nil || d == nil || !strings.Contains(d.Detail, "over the limit of 10") {
		t.Errorf("size limit: %v %v", err, ds)
	}
}

// TestWalkGoesOn (issue 20.8, 20.9): under dir/..., a dangling link, a link
// loop, a .gram link to a file that is not gram (never read) and a
// directory that cannot be read are each a diagnostic, and every other
// package is checked; before, the first of them ended check with no
// diagnostics, and the secret file's bytes reached an excerpt.
func TestWalkGoesOn(t *testing.T) {
	root := t.TempDir()
	good := "[one:Tool {description: \"d\"} | (x::String)==>(::String)]\n"
	for _, d := range []string{"a", "b", "c"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
		os.WriteFile(filepath.Join(root, d, d+".gram"), []byte(strings.ReplaceAll(good, "one", d)), 0o644)
	}
	secret := filepath.Join(root, "secret.env")
	os.WriteFile(secret, []byte("OPENAI_API_KEY=sk-very-secret"), 0o600)
	os.Symlink(filepath.Join(root, "nowhere.gram"), filepath.Join(root, "a", "dangling.gram"))
	os.Symlink("loop.gram", filepath.Join(root, "b", "loop.gram"))
	os.Symlink(secret, filepath.Join(root, "c", "secret.gram"))
	pkgs, ds, err := Packages([]string{root + "/..."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, says string }{
		{"dangling.gram", "a symbolic link to nothing"},
		{"loop.gram", "cannot be followed"},
		{"secret.gram", "a symbolic link to a file that is not a .gram file"},
	} {
		d := problem(ds, c.file)
		if d == nil || !strings.Contains(d.Detail, c.says) {
			t.Errorf("%s: %v", c.file, ds)
		}
	}
	if len(pkgs) != 3 {
		t.Fatalf("%d packages, want a, b and c checked", len(pkgs))
	}
	for _, p := range pkgs {
		if len(p.Tools) != 1 {
			t.Errorf("package %s: %d tools", p.Dir, len(p.Tools))
		}
	}
	for _, d := range ds {
		if strings.Contains(d.Summary+d.Detail, "sk-very-secret") {
			t.Errorf("the secret reached a diagnostic: %v", d)
		}
	}
	if _, err := ReadSource(filepath.Join(root, "c", "secret.gram")); err == nil {
		t.Error("ReadSource read a .gram link to a file that is not gram")
	}
	if _, err := ReadSource(secret); err == nil {
		t.Error("ReadSource read a file that is not .gram")
	}
}
