package load

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a repository in a new directory with files committed.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "v1"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestGitBoundsEachFile: a file over the limit is refused, saying so,
// not read whole (exec copies a command's output with io.Copy, which a
// buffer's ReadFrom would take past any limit).
func TestGitBoundsEachFile(t *testing.T) {
	big := "// " + strings.Repeat("x", 5000) + "\n"
	dir := gitRepo(t, map[string]string{"tools/a.gram": "// small\n", "tools/big.gram": big})
	if _, err := gitExport(dir, "HEAD", "tools", 1000); err == nil || !strings.Contains(err.Error(), "HEAD:tools/big.gram: larger than 1000 bytes") {
		t.Errorf("export with a file over the limit: %v", err)
	}
	out, err := gitExport(dir, "HEAD", "tools", 10000)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(out)
	if got, err := os.ReadFile(filepath.Join(out, "big.gram")); err != nil || string(got) != big {
		t.Errorf("the exported file: %d bytes, %v", len(got), err)
	}

	if _, err := GitReadFile(dir, "HEAD", "tools/big.gram", 1000); !errors.Is(err, ErrTooLarge) {
		t.Errorf("GitReadFile over the limit: %v", err)
	}
	if data, err := GitReadFile(dir, "HEAD", "./tools/a.gram", 1000); err != nil || string(data) != "// small\n" {
		t.Errorf("GitReadFile relative to dir: %q, %v", data, err)
	}
	if _, err := GitReadFile(dir, "HEAD", "nothere.gram", 1000); err == nil || !strings.HasPrefix(err.Error(), "git cat-file: fatal: ") {
		t.Errorf("GitReadFile of a missing file: %v", err)
	}
	if _, err := GitReadFile(dir, "--output=x", "a.gram", 1000); err == nil || !strings.Contains(err.Error(), "cannot begin with -") {
		t.Errorf("GitReadFile of an option: %v", err)
	}
}
