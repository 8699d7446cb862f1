package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// recorder is a testing.TB that keeps what the harness reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }

func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.golden")
	t.Setenv("GRAMC_UPDATE", "")
	r := &recorder{TB: t}
	File(r, path, []byte("one\n"))
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "GRAMC_UPDATE=1") {
		t.Fatalf("a missing golden: %q", r.errs)
	}
	t.Setenv("GRAMC_UPDATE", "1")
	File(t, path, []byte("one\n"))
	t.Setenv("GRAMC_UPDATE", "")
	File(t, path, []byte("one\n"))
	r = &recorder{TB: t}
	File(r, path, []byte("two\n"))
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "one") || !strings.Contains(r.errs[0], "two") {
		t.Fatalf("a stale golden: %q", r.errs)
	}
}

func TestSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.txtar")
	if err := os.WriteFile(path, []byte("comment\n-- in --\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ar, _ := txtar.ParseFile(path)
	t.Setenv("GRAMC_UPDATE", "")
	r := &recorder{TB: t}
	Section(r, path, ar, "want", []byte("y"))
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "no want section") {
		t.Fatalf("a missing section: %q", r.errs)
	}
	t.Setenv("GRAMC_UPDATE", "1")
	Section(t, path, ar, "want", []byte("y"))
	b, _ := os.ReadFile(path)
	if string(b) != "comment\n-- in --\nx\n-- want --\ny\n" {
		t.Fatalf("rewritten as %q", b)
	}
	t.Setenv("GRAMC_UPDATE", "")
	ar, _ = txtar.ParseFile(path)
	Section(t, path, ar, "want", []byte("y")) // the newline txtar adds is no difference
	r = &recorder{TB: t}
	Section(r, path, ar, "want", []byte("z\n"))
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "section want differs") {
		t.Fatalf("a stale section: %q", r.errs)
	}
}

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.txtar", "b.txtar"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GRAMC_UPDATE", "")
	r := &recorder{TB: t}
	Prune(r, filepath.Join(dir, "*.txtar"), map[string]bool{"a.txtar": true})
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "b.txtar") {
		t.Fatalf("an orphan: %q", r.errs)
	}
	t.Setenv("GRAMC_UPDATE", "1")
	Prune(t, filepath.Join(dir, "*.txtar"), map[string]bool{"a.txtar": true})
	if _, err := os.Stat(filepath.Join(dir, "b.txtar")); !os.IsNotExist(err) {
		t.Fatalf("the orphan is still there: %v", err)
	}
}
