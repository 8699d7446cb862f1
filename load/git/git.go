// Package git reads older versions of gram packages from a git
// repository (gramc diff's REV:PATH, the language server's baseline). It
// sits above the loader, apart from it, so that what loads files — which
// the playground's WebAssembly module links — never links os/exec.
package git

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gramc-dev/gramc/internal/capped"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load"
)

// How gramc runs git. gramc reads older versions of a package (gramc
// diff's REV:PATH, the language server's baseline) and nothing else; the
// repository it reads is often one the user has just cloned, and nothing
// in it may choose what git executes. So:
//
//   - the repository is found once, by gramc, as the nearest directory
//     from the user's path (or the editor's workspace) up that holds a
//     .git entry; git never discovers one itself, so a directory of the
//     work tree laid out as a bare repository (HEAD, config, objects/,
//     refs/ are files anyone can commit) is never taken for one, and git
//     is told so as well (safe.bareRepository=explicit);
//   - git may not fetch: a partial clone's promisor remote would run its
//     configured upload-pack command to fetch a missing object lazily.
//     GIT_NO_LAZY_FETCH (git 2.44 and later) turns that off, and
//     GIT_ALLOW_PROTOCOL with no real protocol listed refuses every
//     transport on any git, overriding any protocol.*.allow of the
//     repository's configuration;
//   - only plumbing that reads objects runs (rev-parse, ls-tree,
//     cat-file), with the file-system monitor off and no pager;
//   - every run is bounded in time (its context) and in output.
//
// Errors are said in git's words, through the terminal filter, and are
// values a caller tells apart with errors.As and errors.Is (*Error, with
// git's exit status; ErrNotLocal; load.ErrTooLarge), never by their text.

// An Error is a git command that failed: its verb (cat-file), its exit
// status (-1 when it did not exit: it could not start, or its output
// broke off) and what it said on standard error, or Err's text when it
// said nothing.
type Error struct {
	Verb     string
	ExitCode int
	Stderr   string
	Err      error
}

func (e *Error) Error() string {
	msg := e.Stderr
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", e.Verb, termsafe.Line(msg, 300))
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNotLocal is wrapped by the error for an object the local repository
// lacks, or a REV:PATH that names none (git cat-file --batch answers
// "missing" for both).
var ErrNotLocal = errors.New("the object is not in the local repository (gramc never fetches: a partial clone must fetch it first)")

// ErrTimeout is wrapped by the error of a git command that gave no answer
// within Timeout.
var ErrTimeout = errors.New("no answer")

// missingError is ReadFile's error for a REV:PATH that names nothing
// there: it wraps ErrNotLocal, in words of its own.
type missingError struct{ where string }

func (e *missingError) Error() string {
	return "git cat-file: " + e.where + " does not exist or is not in the local repository"
}

func (e *missingError) Unwrap() error { return ErrNotLocal }

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

// Timeout bounds one git command gramc runs, unless the caller's context
// ends it sooner.
const Timeout = 30 * time.Second

// A Repo is a git repository found from a directory of its work tree.
type Repo struct {
	// Top is the root of its work tree, absolute; GitDir its git
	// directory, as git reports it.
	Top, GitDir string
}

// OpenRepo finds the repository whose work tree holds dir ("" for the
// current directory): the nearest of dir and its parents that holds a
// .git entry, confirmed by git (which applies its own ownership checks)
// to be a repository with a work tree whose root is that directory. A
// bare repository, or a .git that git resolves elsewhere, is refused.
func OpenRepo(ctx context.Context, dir string) (*Repo, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	top := ""
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if top == "" {
		return nil, fmt.Errorf("%s is not in a git repository (no .git in it or above it)", termsafe.Line(abs, 300))
	}
	r := &Repo{Top: top}
	out, err := r.output(ctx, "rev-parse", "--is-bare-repository", "--show-toplevel", "--absolute-git-dir")
	if err != nil {
		return nil, fmt.Errorf("%s: not a usable git repository: %w", termsafe.Line(top, 300), err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 {
		return nil, fmt.Errorf("%s: git rev-parse answered %q", termsafe.Line(top, 300), termsafe.Line(string(out), 300))
	}
	if lines[0] != "false" {
		return nil, fmt.Errorf("%s: a bare repository; gramc reads only a repository with a work tree", termsafe.Line(top, 300))
	}
	gitTop := lines[1]
	if real, err := filepath.EvalSymlinks(gitTop); err == nil {
		gitTop = real
	}
	if gitTop != top {
		return nil, fmt.Errorf("%s: git places its work tree at %s, not where its .git is; gramc does not read it", termsafe.Line(top, 300), termsafe.Line(lines[1], 300))
	}
	r.GitDir = lines[2]
	return r, nil
}

// lazyFetchFlag is git's --no-lazy-fetch where git has it (2.44 and
// later), asked once.
var lazyFetchFlag = sync.OnceValue(func() []string {
	cmd := exec.Command("git", "--no-lazy-fetch", "version")
	cmd.Env = gitEnv()
	if cmd.Run() == nil {
		return []string{"--no-lazy-fetch"}
	}
	return nil
})

// gitEnv is the environment of every git command gramc runs: the user's,
// without the variables that would point git at another repository, and
// with fetching and prompting off.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
			"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
			"GIT_NO_LAZY_FETCH", "GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL_FROM_USER", "GIT_TERMINAL_PROMPT", "GIT_PAGER":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GIT_NO_LAZY_FETCH=1",
		// A list of protocols allows only those, whatever the
		// configuration says; no transport is named "gramc-none".
		"GIT_ALLOW_PROTOCOL=gramc-none",
		"GIT_PROTOCOL_FROM_USER=0",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_PAGER=cat",
	)
}

// command is git with args, run in the work tree's root with gramc's
// safeguards.
func (r *Repo) command(ctx context.Context, args ...string) *exec.Cmd {
	full := append([]string{"--no-pager"}, lazyFetchFlag()...)
	full = append(full, "-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false", "-c", "protocol.allow=never")
	cmd := exec.CommandContext(ctx, "git", append(full, args...)...)
	cmd.Dir = r.Top
	cmd.Env = gitEnv()
	cmd.WaitDelay = time.Second
	return cmd
}

// output runs git and returns its standard output (at most 1 MiB),
// or an error in git's words.
func (r *Repo) output(ctx context.Context, args ...string) ([]byte, error) {
	return r.outputLimit(ctx, 1<<20, args...)
}

// outputLimit is output with at most limit bytes of output.
func (r *Repo) outputLimit(ctx context.Context, limit int, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := r.command(ctx, args...)
	out := &capped.Buffer{Limit: limit, Fail: true}
	stderr := &capped.Buffer{Limit: 4 << 10}
	cmd.Stdout, cmd.Stderr = out, stderr
	err := cmd.Run()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, timeoutError(args[0])
	case out.Over:
		return nil, fmt.Errorf("git %s: %w: more than %d bytes of output", args[0], load.ErrTooLarge, limit)
	case err != nil:
		return nil, gitError(args[0], err, stderr)
	}
	return out.Bytes(), nil
}

// gitError is the *Error of a git command that failed with err, having
// said stderr.
func gitError(verb string, err error, stderr *capped.Buffer) error {
	code := -1
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	}
	return &Error{Verb: verb, ExitCode: code, Stderr: strings.TrimSpace(stderr.String()), Err: err}
}

// timeoutError is the error of a git command that gave no answer within
// Timeout.
func timeoutError(verb string) error {
	return fmt.Errorf("git %s: %w within %s (git.Timeout)", verb, ErrTimeout, Timeout)
}

// relDir is dir relative to the work tree's root, with slashes ("" for
// the root itself).
func (r *Repo) relDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	rel, err := filepath.Rel(r.Top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the repository at %s", termsafe.Line(dir, 300), termsafe.Line(r.Top, 300))
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

// An Export is a package at a revision, its .gram files written to a
// temporary directory (Dir) that Remove removes. Rev and TreePath are the
// revision and the path from the root of the tree it was read from.
type Export struct {
	Dir, Rev, TreePath string
}

// Remove removes the temporary directory.
func (x *Export) Remove() {
	if x != nil && x.Dir != "" {
		os.RemoveAll(x.Dir)
	}
}

// Name is how a file of the export is shown: as git names it, REV:PATH
// (main:tools/a.gram); any other file is itself.
func (x *Export) Name(file string) string {
	if x == nil || x.Dir == "" || !strings.HasPrefix(file, x.Dir+string(filepath.Separator)) {
		return file
	}
	rel := filepath.ToSlash(strings.TrimPrefix(file, x.Dir+string(filepath.Separator)))
	dir := strings.TrimSuffix(strings.TrimSuffix(x.TreePath, "..."), "/")
	if strings.HasSuffix(dir, ".gram") { // the path named a file
		return x.Rev + ":" + dir
	}
	if dir != "" {
		rel = dir + "/" + rel
	}
	return x.Rev + ":" + rel
}

// ExportAt writes the .gram files of path at revision rev of the git
// repository holding dir ("" for the current directory) into a new
// temporary directory, keeping their paths relative to path: the caller
// removes it. path is read as git show reads REV:PATH (TreePath): from
// the root of the tree, or from dir when it begins with "./" or "../". A
// directory is the package of its own .gram files; a path ending in
// "/..." walks every directory below it, as a pattern does; a .gram file
// is itself. Each file is bounded by load.DefaultMaxFileSize, as files
// on disk are.
func ExportAt(ctx context.Context, dir, rev, path string) (*Export, error) {
	return gitExport(ctx, dir, rev, path, load.DefaultMaxFileSize)
}

// gitExport is ExportAt with each file bounded by maxFile bytes.
func gitExport(ctx context.Context, dir, rev, path string, maxFile int) (*Export, error) {
	where := termsafe.Line(rev, 100) + ":" + termsafe.Line(path, 300)
	if why := ValidRevision(rev); why != "" {
		return nil, fmt.Errorf("%s: %s", where, why)
	}
	r, err := OpenRepo(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	treePath, err := r.TreePath(dir, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return r.export(ctx, rev, treePath, maxFile)
}

// TreePath is path, the PATH of REV:PATH, as a path from the root of the
// tree, resolved exactly as git show resolves it: a path beginning with
// "./" or "../" is relative to dir (a directory of the work tree), any
// other from the root ("" is the root). "." is dir, as "./" is (git
// itself refuses REV:.). A trailing "/..." is kept.
func (r *Repo) TreePath(dir, path string) (string, error) {
	path = filepath.ToSlash(path)
	walk := path == "..." || strings.HasSuffix(path, "/...")
	if walk {
		path = strings.TrimSuffix(strings.TrimSuffix(path, "..."), "/")
	}
	if path == "." || path == "./" || strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../") || path == ".." {
		prefix, err := r.relDir(dir)
		if err != nil {
			return "", err
		}
		path = prefix + "/" + path
	}
	tp := strings.TrimPrefix(filepath.ToSlash(filepath.Clean("/"+path)), "/")
	if strings.HasPrefix(filepath.ToSlash(filepath.Clean(path)), "../") || filepath.Clean(path) == ".." {
		return "", fmt.Errorf("%s is outside the repository", termsafe.Line(path, 300))
	}
	if walk {
		if tp == "" {
			return "...", nil
		}
		return tp + "/...", nil
	}
	return tp, nil
}

// Export writes the .gram files of treePath (a path from the root of the
// tree, as TreePath gives; "" is the root, a trailing "/..." walks) at
// revision rev into a new temporary directory, as ExportAt does.
func (r *Repo) Export(ctx context.Context, rev, treePath string) (*Export, error) {
	if why := ValidRevision(rev); why != "" {
		return nil, fmt.Errorf("%s:%s: %s", termsafe.Line(rev, 100), termsafe.Line(treePath, 300), why)
	}
	return r.export(ctx, rev, treePath, load.DefaultMaxFileSize)
}

// PackagePath is dir, a directory of the work tree, as a tree path: the
// package of its own files.
func (r *Repo) PackagePath(dir string) (string, error) { return r.relDir(dir) }

// lsTreeLimit bounds the listing of a tree: some 200,000 entries.
const lsTreeLimit = 16 << 20

// export lists the tree under treePath at rev with names NUL-separated
// (so that a name git would quote arrives as it is), then reads every
// .gram blob it keeps through one git cat-file --batch.
func (r *Repo) export(ctx context.Context, rev, treePath string, maxFile int) (*Export, error) {
	x := &Export{Rev: rev, TreePath: treePath}
	where := termsafe.Line(rev, 100) + ":" + termsafe.Line(treePath, 300)
	walk := treePath == "..." || strings.HasSuffix(treePath, "/...")
	if walk {
		treePath = strings.TrimSuffix(strings.TrimSuffix(treePath, "..."), "/")
	}
	lsArgs := []string{"ls-tree", "-r", "-z", "--full-tree", rev}
	if treePath != "" {
		lsArgs = append(lsArgs, "--", treePath)
	}
	out, err := r.outputLimit(ctx, lsTreeLimit, lsArgs...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	type blob struct{ oid, name, rel string }
	var blobs []blob
	for _, entry := range strings.Split(string(out), "\x00") {
		// <mode> SP <type> SP <object> TAB <file>
		meta, name, ok := strings.Cut(entry, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 || fields[1] != "blob" || !strings.HasSuffix(name, ".gram") {
			continue
		}
		var rel string
		switch {
		case name == treePath: // the path names a file
			rel = filepath.Base(name)
		case treePath == "":
			rel = name
		default:
			rel = strings.TrimPrefix(name, treePath+"/")
		}
		if !walk && strings.Contains(rel, "/") {
			continue // a directory below: another package
		}
		blobs = append(blobs, blob{fields[2], name, rel})
	}
	if len(blobs) == 0 {
		return nil, fmt.Errorf("%s: no .gram files at that revision", where)
	}
	tmp, err := os.MkdirTemp("", "gramc-rev-")
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Export, error) {
		os.RemoveAll(tmp)
		return nil, err
	}
	oids := make([]string, len(blobs))
	for i, b := range blobs {
		oids[i] = b.oid
	}
	i := 0
	err = r.catBatch(ctx, oids, maxFile, func(data []byte, err error) error {
		b := blobs[i]
		i++
		name := termsafe.Line(b.name, 300)
		if errors.Is(err, load.ErrTooLarge) {
			return fmt.Errorf("%s:%s: larger than %d bytes", termsafe.Line(rev, 100), name, maxFile)
		} else if err != nil {
			return fmt.Errorf("%s:%s: %w", termsafe.Line(rev, 100), name, err)
		}
		dst := filepath.Join(tmp, filepath.FromSlash(b.rel))
		if !strings.HasPrefix(dst, tmp+string(filepath.Separator)) {
			return fmt.Errorf("%s:%s: a path outside the package", termsafe.Line(rev, 100), name)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return fail(err)
	}
	x.Dir = tmp
	return x, nil
}

// catBatch reads the blobs oids through one git cat-file --batch, calling
// each with its content (at most max bytes: past them the error wraps
// ErrTooLarge and the content is skipped, not read into memory) or its
// error, in order. An error from each stops the reading.
func (r *Repo) catBatch(ctx context.Context, oids []string, max int, each func([]byte, error) error) error {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := r.command(ctx, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(oids, "\n") + "\n")
	stderr := &capped.Buffer{Limit: 4 << 10}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return &Error{Verb: "cat-file", ExitCode: -1, Err: err}
	}
	stop := func(err error) error {
		cancel()
		cmd.Wait()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return timeoutError("cat-file")
		}
		return err
	}
	br := bufio.NewReader(stdout)
	for range oids {
		header, err := br.ReadString('\n')
		if err != nil {
			return stop(gitError("cat-file", err, stderr))
		}
		// <oid> SP <type> SP <size> LF, or <object> SP missing LF
		fields := strings.Fields(header)
		if len(fields) == 2 && fields[1] == "missing" {
			if err := each(nil, ErrNotLocal); err != nil {
				return stop(err)
			}
			continue
		}
		if len(fields) != 3 {
			return stop(fmt.Errorf("git cat-file: unexpected answer %q", termsafe.Line(header, 200)))
		}
		if fields[1] != "blob" {
			return stop(fmt.Errorf("git cat-file: a %s, not a file", termsafe.Line(fields[1], 20)))
		}
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil || size < 0 {
			return stop(fmt.Errorf("git cat-file: unexpected size %q", termsafe.Line(fields[2], 50)))
		}
		if size > int64(max) {
			if err := each(nil, fmt.Errorf("%w: over the limit of %d bytes", load.ErrTooLarge, max)); err != nil {
				return stop(err)
			}
			if _, err := io.CopyN(io.Discard, br, size+1); err != nil {
				return stop(gitError("cat-file", err, stderr))
			}
			continue
		}
		data := make([]byte, size+1) // and the LF after the content
		if _, err := io.ReadFull(br, data); err != nil {
			return stop(gitError("cat-file", err, stderr))
		}
		if err := each(data[:size], nil); err != nil {
			return stop(err)
		}
	}
	if err := cmd.Wait(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return timeoutError("cat-file")
		}
		return gitError("cat-file", err, stderr)
	}
	return nil
}

// ReadFile reads the file at path at revision rev of the git repository
// holding dir ("" for the current directory), keeping at most max bytes:
// past them the error wraps load.ErrTooLarge. path is git's: from the top
// of the tree, or relative to dir when it begins with "./". A path that
// names nothing at rev wraps ErrNotLocal; a failure of git is an *Error.
// ctx ends the read (gramc diff passes its command's, so Ctrl-C stops
// git).
func ReadFile(ctx context.Context, dir, rev, path string, max int) ([]byte, error) {
	if why := ValidRevision(rev); why != "" {
		return nil, errors.New(why)
	}
	r, err := OpenRepo(ctx, dir)
	if err != nil {
		return nil, err
	}
	treePath, err := r.TreePath(dir, path)
	if err != nil {
		return nil, err
	}
	var data []byte
	err = r.catBatch(ctx, []string{rev + ":" + treePath}, max, func(b []byte, err error) error {
		data = b
		return err
	})
	if errors.Is(err, ErrNotLocal) {
		// cat-file --batch says "missing" for a name it cannot resolve too.
		return nil, &missingError{termsafe.Line(rev, 100) + ":" + termsafe.Line(treePath, 300)}
	}
	return data, err
}
