package load

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gramc-dev/gramc/internal/capped"
	"github.com/gramc-dev/gramc/internal/termsafe"
)

// ValidRevision reports why rev cannot name a git revision safely ("" when
// it can): it is given to git as an argument, so it must not read as an
// option, and a NUL or a line break has no place in one.
func ValidRevision(rev string) string {
	switch {
	case rev == "":
		return "the revision is empty"
	case strings.HasPrefix(rev, "-"):
		return "a revision cannot begin with -"
	case strings.ContainsAny(rev, "\x00\n\r"):
		return "a revision cannot hold a NUL or a line break"
	}
	return ""
}

// GitExport writes the .gram files under path at revision rev of the git
// repository holding dir ("" for the current directory; path is relative
// to dir) into a new temporary directory, keeping their relative paths,
// and returns it: the caller removes it. gramc diff's REV:PATH and the
// language server's baseline read older versions through it. Each file is
// bounded by DefaultMaxFileSize, as files on disk are.
func GitExport(dir, rev, path string) (string, error) {
	return gitExport(dir, rev, path, DefaultMaxFileSize)
}

// gitExport is GitExport with each file bounded by maxFile bytes.
func gitExport(dir, rev, path string, maxFile int) (string, error) {
	if why := ValidRevision(rev); why != "" {
		return "", fmt.Errorf("%s:%s: %s", termsafe.Line(rev, 100), path, why)
	}
	path = strings.TrimPrefix(filepath.ToSlash(path), "./")
	if path == "" {
		path = "."
	}
	git := func(args ...string) *exec.Cmd {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		return cmd
	}
	prefix, err := git("rev-parse", "--show-prefix").Output()
	if err != nil {
		return "", fmt.Errorf("%s:%s: not in a git repository (git rev-parse: %v)", rev, path, err)
	}
	treePath := filepath.ToSlash(filepath.Clean(filepath.Join(strings.TrimSpace(string(prefix)), path)))
	if treePath == "." {
		treePath = ""
	}
	lsArgs := []string{"ls-tree", "-r", "--name-only", "--full-tree", rev}
	if treePath != "" {
		lsArgs = append(lsArgs, "--", treePath)
	}
	var stderr bytes.Buffer
	cmd := git(lsArgs...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s:%s: git ls-tree: %s", rev, path, termsafe.Line(strings.TrimSpace(stderr.String()), 300))
	}
	tmp, err := os.MkdirTemp("", "gramc-rev-")
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		os.RemoveAll(tmp)
		return "", err
	}
	n := 0
	for _, name := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !strings.HasSuffix(name, ".gram") {
			continue
		}
		data, err := GitReadFile(dir, rev, name, maxFile)
		if errors.Is(err, ErrTooLarge) {
			return fail(fmt.Errorf("%s:%s: larger than %d bytes", rev, name, maxFile))
		} else if err != nil {
			return fail(fmt.Errorf("%s:%s: %v", rev, name, err))
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(name, treePath), "/")
		if rel == "" {
			rel = filepath.Base(name)
		}
		dst := filepath.Join(tmp, filepath.FromSlash(rel))
		if !strings.HasPrefix(dst, tmp+string(filepath.Separator)) {
			return fail(fmt.Errorf("%s:%s: a path outside the package", rev, name))
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fail(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fail(err)
		}
		n++
	}
	if n == 0 {
		return fail(fmt.Errorf("%s:%s: no .gram files at that revision", rev, path))
	}
	return tmp, nil
}

// GitReadFile reads the file at path at revision rev of the git
// repository holding dir ("" for the current directory), keeping at most
// max bytes: past them the error wraps ErrTooLarge. path is git's: from
// the top of the tree, or relative to dir when it begins with "./". A
// failure of git is said in git's words.
func GitReadFile(dir, rev, path string, max int) ([]byte, error) {
	if why := ValidRevision(rev); why != "" {
		return nil, errors.New(why)
	}
	cmd := exec.Command("git", "cat-file", "blob", rev+":"+path)
	cmd.Dir = dir
	out := &capped.Buffer{Limit: max, Fail: true}
	stderr := &capped.Buffer{Limit: 4 << 10}
	cmd.Stdout, cmd.Stderr = out, stderr
	err := cmd.Run()
	switch {
	case out.Over:
		return nil, fmt.Errorf("%w: over the limit of %d bytes", ErrTooLarge, max)
	case err != nil:
		return nil, fmt.Errorf("git cat-file: %s", termsafe.Line(strings.TrimSpace(stderr.String()), 300))
	}
	return out.Bytes(), nil
}
