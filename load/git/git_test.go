package git

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/load"
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
	if _, err := gitExport(context.Background(), dir, "HEAD", "tools", 1000); err == nil || !strings.Contains(err.Error(), "HEAD:tools/big.gram: larger than 1000 bytes") {
		t.Errorf("export with a file over the limit: %v", err)
	}
	x, err := gitExport(context.Background(), dir, "HEAD", "tools", 10000)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Remove()
	out := x.Dir
	if got, err := os.ReadFile(filepath.Join(out, "big.gram")); err != nil || string(got) != big {
		t.Errorf("the exported file: %d bytes, %v", len(got), err)
	}

	if _, err := ReadFile(context.Background(), dir, "HEAD", "tools/big.gram", 1000); !errors.Is(err, load.ErrTooLarge) {
		t.Errorf("ReadFile over the limit: %v", err)
	}
	if data, err := ReadFile(context.Background(), dir, "HEAD", "./tools/a.gram", 1000); err != nil || string(data) != "// small\n" {
		t.Errorf("ReadFile relative to dir: %q, %v", data, err)
	}
	if _, err := ReadFile(context.Background(), dir, "HEAD", "nothere.gram", 1000); err == nil || !strings.Contains(err.Error(), "HEAD:nothere.gram does not exist") {
		t.Errorf("ReadFile of a missing file: %v", err)
	}
	if _, err := ReadFile(context.Background(), dir, "--output=x", "a.gram", 1000); err == nil || !strings.Contains(err.Error(), "cannot begin with -") {
		t.Errorf("ReadFile of an option: %v", err)
	}
}

// plantedCommand is a shell command that, run by git, leaves a file
// behind: the test fails if it ever exists.
func plantedCommand(t *testing.T) (command, marker string) {
	marker = filepath.Join(t.TempDir(), "ran")
	return "touch " + marker + "; false", marker
}

// TestGitRunsNothingAClonedRepositoryPlants builds issue 35.1's
// repository: a package directory committed laid out as a bare git
// repository whose config declares a partial clone with a promisor remote
// whose upload-pack is any command, the package's HEAD naming a commit
// that is not there. Reading a revision from inside it must neither take
// it for a repository nor run its command; gramc reads the repository
// whose .git holds it.
func TestGitRunsNothingAClonedRepositoryPlants(t *testing.T) {
	command, marker := plantedCommand(t)
	dir := gitRepo(t, map[string]string{
		"tools/a.gram":            "[a:Tool {description: \"x\"} | (::String)]\n",
		"tools/HEAD":              "ref: refs/heads/main\n",
		"tools/refs/heads/main":   "0123456789012345678901234567890123456789\n",
		"tools/objects/info/keep": "",
		"tools/gramc.json":        `{"baseline": "HEAD"}` + "\n",
		"tools/config":            "[core]\n\trepositoryformatversion = 1\n\tbare = true\n[extensions]\n\tpartialClone = origin\n[remote \"origin\"]\n\turl = /nowhere\n\tpromisor = true\n\tuploadpack = " + command + "\n",
	})
	tools := filepath.Join(dir, "tools")
	r, err := OpenRepo(context.Background(), tools)
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(dir); r.Top != real {
		t.Errorf("the repository of tools/ is at %s, want the clone's root %s", r.Top, real)
	}
	x, err := gitExport(context.Background(), tools, "HEAD", ".", load.DefaultMaxFileSize)
	if err != nil {
		t.Fatalf("export of HEAD:. from tools/: %v", err)
	}
	defer x.Remove()
	out := x.Dir
	if _, err := os.Stat(filepath.Join(out, "a.gram")); err != nil {
		t.Errorf("the export lacks tools/a.gram: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("git ran the command the repository planted")
	}
}

// TestGitNeverFetches: a repository that is itself a partial clone with a
// promisor remote (a .git that came in an archive, say) asked for an
// object it lacks fails, saying so, without running the remote's
// upload-pack.
func TestGitNeverFetches(t *testing.T) {
	command, marker := plantedCommand(t)
	dir := gitRepo(t, map[string]string{"a.gram": "[a:Tool {description: \"x\"} | (::String)]\n"})
	for _, kv := range [][2]string{
		{"core.repositoryformatversion", "1"}, {"extensions.partialClone", "origin"},
		{"remote.origin.url", "/nowhere"}, {"remote.origin.promisor", "true"},
		{"remote.origin.uploadpack", command}, {"protocol.file.allow", "always"},
	} {
		if out, err := exec.Command("git", "-C", dir, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config: %v\n%s", err, out)
		}
	}
	ghost := filepath.Join(dir, ".git", "refs", "heads", "ghost")
	if err := os.WriteFile(ghost, []byte("0123456789012345678901234567890123456789\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gitExport(context.Background(), dir, "ghost", ".", load.DefaultMaxFileSize); err == nil {
		t.Error("export of a missing commit succeeded")
	}
	if _, err := ReadFile(context.Background(), dir, "ghost", "a.gram", 1000); err == nil {
		t.Error("reading from a missing commit succeeded")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("git ran the promisor remote's upload-pack")
	}
}

// TestGitRefusesBareRepositories: a .git that is a bare repository is
// not read.
func TestGitRefusesBareRepositories(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.gram": "// a\n"})
	if out, err := exec.Command("git", "-C", dir, "config", "core.bare", "true").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	if _, err := OpenRepo(context.Background(), dir); err == nil {
		t.Error("a bare repository was opened")
	}
}

// TestGitErrorsAreValues: what went wrong is told apart by errors.Is and
// errors.As, never by git's words: a path that names nothing at a
// revision wraps ErrNotLocal, a revision git cannot resolve is an *Error
// with git's exit status, and a cancelled context ends the read.
func TestGitErrorsAreValues(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.gram": "// a\n"})
	if _, err := ReadFile(t.Context(), dir, "HEAD", "nothere.gram", 1000); !errors.Is(err, ErrNotLocal) {
		t.Errorf("ReadFile of a missing path: %v, want ErrNotLocal", err)
	}
	_, err := ExportAt(t.Context(), dir, "no-such-branch", ".")
	var ge *Error
	if !errors.As(err, &ge) || ge.Verb != "ls-tree" || ge.ExitCode <= 0 || ge.Stderr == "" {
		t.Errorf("export of an unknown revision: %#v (%v), want an *Error of ls-tree with git's exit status", ge, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := ReadFile(ctx, dir, "HEAD", "a.gram", 1000); err == nil {
		t.Error("ReadFile under a cancelled context succeeded")
	}
}
