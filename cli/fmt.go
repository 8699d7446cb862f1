package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/syntax"
)

func init() { register(newFmtCmd) }

// fmtOptions are gramc fmt's flags, with gofmt's meaning.
type fmtOptions struct {
	write bool // -w: write the result back to the file
	list  bool // -l: list files whose formatting differs
	diff  bool // -d: print a unified diff
	check bool // --check: list them and exit 1 if any (for CI)
}

func newFmtCmd(e *env) *cobra.Command {
	var opts fmtOptions
	cmd := &cobra.Command{
		Use:   "fmt [-w] [-l] [-d] [path ...]",
		Short: "Format gram files in the canonical layout",
		Long: `Fmt prints gram files in gramc's one canonical layout.

With no path it formats standard input to standard output. A file argument
is formatted whatever its name; a directory, or a pattern ending in "/..."
such as ./..., is walked recursively for *.gram files ("dir/..." skips
directories named testdata or starting with "." or "_", like the go
command).

By default the formatted text is printed to standard output. The flags,
as in gofmt:

  -l  list the files whose formatting differs from gramc fmt's
  -w  write the result back to the file, as gofmt -w does (mode, owner
      and hard links kept; a read-only file is refused), whole or not at
      all, and only if it is unchanged since it was read: a file saved
      meanwhile is left as it is, and said (exit status 2)
  -d  print a unified diff instead of the formatted text

and, for CI, --check: list the files that differ, as -l does, and exit 1
when there is one (-l keeps gofmt's exit status 0).

A file with a syntax error is never formatted: its errors are printed as
file:line:col: messages and the other files are still processed.
Exit status: 0 on success, 1 when a file has syntax errors (or, with
--check, differs from its formatting), 2 for usage or I/O errors.`,
		Example: `  gramc fmt weather.gram
  gramc fmt -l ./...
  gramc fmt -w tools/
  gramc fmt -d weather.gram
  gramc fmt --check ./...     # in CI: exit 1 when a file is not formatted
  cat weather.gram | gramc fmt`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFmt(e, opts, args)
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&opts.write, "write", "w", false, "write the result to the file instead of standard output")
	f.BoolVarP(&opts.list, "list", "l", false, "list files whose formatting differs")
	f.BoolVarP(&opts.diff, "diff", "d", false, "print diffs instead of the formatted text")
	f.BoolVar(&opts.check, "check", false, "list files whose formatting differs and exit 1 if there is one (for CI)")
	return cmd
}

// fmtRun is the state of one gramc fmt invocation.
type fmtRun struct {
	e        *env
	opts     fmtOptions
	problems bool // a file had syntax errors
	ioErrors bool // a file could not be read, walked or written
	differs  bool // a file's formatting differs (--check)
	// guard, when set, vets each file before it is read (the compiler's
	// MCP tools: a file under their root only).
	guard func(path string) error
	// report, when set, collects what the run found instead of printing
	// it (the compiler's format tool): o.write writes as -w does.
	report *fmtReport
}

// fmtReport is what a run of gramc fmt found, for a caller that prints
// nothing: the files whose formatting differs and the syntax errors of
// those it left as they are.
type fmtReport struct {
	files []fmtFile
	diags diag.Diagnostics
}

// fmtFile is a file whose formatting differs: written, or its formatted
// text.
type fmtFile struct {
	name    string
	written bool
	text    []byte
}

func runFmt(e *env, opts fmtOptions, args []string) error {
	r := &fmtRun{e: e, opts: opts}
	if len(args) == 0 {
		if opts.write {
			return usageErrorf("cannot use -w with standard input")
		}
		// The same limit as a file's: /dev/zero must not take the machine.
		src, err := io.ReadAll(io.LimitReader(e.stdin, load.DefaultMaxFileSize+1))
		if err != nil {
			return &exitError{code: ExitUsage, err: fmt.Errorf("reading standard input: %w", err)}
		}
		if len(src) > load.DefaultMaxFileSize {
			return &exitError{code: ExitUsage, err: fmt.Errorf("standard input is over the %d MiB limit of a .gram file", load.DefaultMaxFileSize>>20)}
		}
		r.process("<standard input>", src, nil)
		return r.exit()
	}
	for _, arg := range args {
		r.arg(arg)
	}
	return r.exit()
}

func (r *fmtRun) exit() error {
	switch {
	case r.ioErrors:
		return exitCode(ExitUsage)
	case r.problems, r.opts.check && r.differs:
		return exitCode(ExitProblem)
	}
	return nil
}

// ioError reports an I/O error and carries on with the other files.
func (r *fmtRun) ioError(err error) {
	fmt.Fprintf(r.e.stderr, "gramc fmt: %v\n", err)
	r.ioErrors = true
}

// arg handles one command-line path: a file, a directory or "dir/...".
func (r *fmtRun) arg(arg string) {
	if dir, ok := strings.CutSuffix(filepath.ToSlash(arg), "/..."); ok || arg == "..." {
		if arg == "..." {
			dir = "."
		}
		if dir == "" {
			dir = "/"
		}
		r.walk(filepath.FromSlash(dir), true)
		return
	}
	fi, err := os.Stat(arg)
	if err != nil {
		r.ioError(err)
		return
	}
	if fi.IsDir() {
		r.walk(arg, false)
		return
	}
	r.file(arg, fi)
}

// walk formats every *.gram file under root. With goPattern (a "dir/..."
// argument) it skips directories the go command skips: testdata and names
// starting with "." or "_".
func (r *fmtRun) walk(root string, goPattern bool) {
	// A symbolic link named on the command line is followed (links below
	// it are not), as for a directory named directly.
	if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err := os.Stat(root); err == nil && fi.IsDir() {
			root += string(filepath.Separator)
		}
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			r.ioError(err)
			if d != nil && d.IsDir() && path != root {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			name := d.Name()
			if goPattern && path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".gram") {
			return nil
		}
		// Every *.gram entry is read under the loader's rules, as gramc
		// check reads it: a link to a .gram file is followed, anything
		// else (a FIFO, a link elsewhere or to nothing) is an error that
		// says what it is, never a file silently skipped.
		fi, err := os.Stat(path)
		if err != nil {
			r.ioError(fmt.Errorf("%s: %w", path, err))
			return nil
		}
		r.file(path, fi)
		return nil
	})
	if err != nil {
		r.ioError(err)
	}
}

func (r *fmtRun) file(path string, fi fs.FileInfo) {
	if r.guard != nil {
		if err := r.guard(path); err != nil {
			r.ioError(err)
			return
		}
	}
	src, err := load.ReadFile(path, load.DefaultMaxFileSize)
	if err != nil {
		r.ioError(err)
		return
	}
	r.process(path, src, fi)
}

// process formats one file's source and reports or writes the result as
// the flags ask. fi is nil for standard input.
func (r *fmtRun) process(name string, src []byte, fi fs.FileInfo) {
	res, diags := syntax.FormatSource(name, src)
	if diags.HasErrors() {
		if r.report != nil {
			r.report.diags = append(r.report.diags, diags.Errors()...)
		} else {
			printDiagnostics(r.e, diags.Errors())
		}
		r.problems = true
		return
	}
	if r.report != nil {
		if bytes.Equal(src, res) {
			return
		}
		f := fmtFile{name: name, text: res}
		if r.opts.write && fi != nil {
			if err := fmtWriteFile(name, src, res); err != nil {
				r.ioError(err)
				return
			}
			f.written, f.text = true, nil
		}
		r.report.files = append(r.report.files, f)
		return
	}
	o := r.opts
	if o.check {
		o.list = true
	}
	if !o.list && !o.write && !o.diff {
		if _, err := r.e.stdout.Write(res); err != nil {
			r.ioError(fmt.Errorf("writing output: %w", err))
		}
		return
	}
	if bytes.Equal(src, res) {
		return
	}
	r.differs = true
	if o.list {
		fmt.Fprintln(r.e.stdout, name)
	}
	if o.write && fi != nil {
		if err := fmtWriteFile(name, src, res); err != nil {
			r.ioError(err)
			return
		}
	}
	if o.diff {
		orig, fixed := name+".orig", name
		if fi == nil {
			orig, fixed = "<standard input>.orig", "<standard input>"
		}
		fmt.Fprintf(r.e.stdout, "diff %s %s\n", orig, fixed)
		if _, err := r.e.stdout.Write(fmtUnifiedDiff(orig, fixed, src, res)); err != nil {
			r.ioError(fmt.Errorf("writing output: %w", err))
		}
	}
}

// errChangedSinceRead is a file that changed between gramc reading it and
// writing it back (an editor saved it meanwhile): it is left as it is.
var errChangedSinceRead = errors.New("changed since gramc read it; left as it is (run again)")

// fmtBeforeCommit, when set (by tests), runs just before a rewrite of name
// becomes visible: another program's write then is the one the check for
// a change since reading must catch.
var fmtBeforeCommit func(name string)

// fmtWriteFile writes data over the file at name, whose contents gramc
// read as orig — only if it still holds orig (else errChangedSinceRead,
// and the file is left alone), and whole or not at all:
//
//   - a file with no other hard link, owned by this user and group, is
//     replaced by renaming a new file over it (the target of a symbolic
//     link to it, with its mode), so an interruption at any moment leaves
//     either the original or the new text;
//   - any other file is rewritten in place, as gofmt -w does, so that it
//     keeps its inode (hard links, owner): its original is first copied
//     to NAME.gramc-backup-* next to it, written back if writing fails,
//     and removed once the file is whole — an interrupted write leaves
//     that backup.
//
// A file gramc may not write (read-only) is refused with the system's
// error rather than replaced.
func fmtWriteFile(name string, orig, data []byte) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("writing %s: not a regular file", name)
	}
	// May this user write it? (A rename would replace a read-only file.)
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	f.Close()
	if fileReplaceable(fi) {
		return fmtReplace(name, orig, data, fi.Mode().Perm())
	}
	return fmtInPlace(name, orig, data, fi)
}

// fmtUnchanged is errChangedSinceRead (with the name) unless the file at
// name still holds orig.
func fmtUnchanged(name string, orig []byte) error {
	if fmtBeforeCommit != nil {
		fmtBeforeCommit(name)
	}
	now, err := load.ReadFile(name, load.DefaultMaxFileSize)
	if err != nil || !bytes.Equal(now, orig) {
		return fmt.Errorf("%s: %w", name, errChangedSinceRead)
	}
	return nil
}

// fmtReplace writes data to a new file beside the target of name (a
// symbolic link is followed) and renames it over the target.
func fmtReplace(name string, orig, data []byte, perm fs.FileMode) error {
	target, err := filepath.EvalSymlinks(name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".gramc-tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := fmtUnchanged(name, orig); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// fmtInPlace rewrites the file at name in place behind a backup.
func fmtInPlace(name string, orig, data []byte, fi fs.FileInfo) error {
	bak, err := fmtBackup(name, orig, fi.Mode().Perm())
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := fmtUnchanged(name, orig); err != nil {
		os.Remove(bak)
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		os.Remove(bak)
		return err
	}
	n, err := f.Write(data)
	if err == nil && int64(n) < fi.Size() {
		err = f.Truncate(int64(n))
	}
	if err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err == nil {
		os.Remove(bak)
		return nil
	}
	if n == 0 {
		os.Remove(bak)
		return fmt.Errorf("writing %s: %w", name, err)
	}
	// Put the original back.
	if rerr := os.WriteFile(name, orig, fi.Mode().Perm()); rerr != nil {
		return fmt.Errorf("writing %s: %w; restoring it failed too (%v): the original is in %s", name, err, rerr, bak)
	}
	os.Remove(bak)
	return fmt.Errorf("writing %s: %w (the original is restored)", name, err)
}

// fmtBackup writes data to a new file next to name
// (name.gramc-backup-<random>) with perm and returns its name.
func fmtBackup(name string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".gramc-backup-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// fmtDiffContext is the number of unchanged lines shown around a change.
const fmtDiffContext = 3

// fmtMaxLCSCells bounds the LCS table; a larger changed region is shown as
// one replacement hunk.
const fmtMaxLCSCells = 4 << 20

// fmtDiffOp is one line of an edit script: ' ' kept, '-' deleted, '+' added.
type fmtDiffOp struct {
	kind byte
	line string
}

// fmtUnifiedDiff returns a unified diff (diff -u format) turning a into b,
// or nil when they are equal. Lines are compared whole, with a longest
// common subsequence over the region between the common prefix and
// suffix.
func fmtUnifiedDiff(nameA, nameB string, a, b []byte) []byte {
	if bytes.Equal(a, b) {
		return nil
	}
	la, lb := fmtSplitLines(a), fmtSplitLines(b)
	ops := fmtEditScript(la, lb)

	var out bytes.Buffer
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	// Group changes into hunks with fmtDiffContext lines around them.
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-fmtDiffContext, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*fmtDiffContext {
				break
			}
		}
		end = min(end+fmtDiffContext, len(ops))
		// Line numbers at start.
		aLine, bLine := 1, 1
		for _, op := range ops[:start] {
			if op.kind != '+' {
				aLine++
			}
			if op.kind != '-' {
				bLine++
			}
		}
		aCount, bCount := 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aCount++
			}
			if op.kind != '-' {
				bCount++
			}
		}
		if aCount == 0 {
			aLine--
		}
		if bCount == 0 {
			bLine--
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aLine, aCount, bLine, bCount)
		for _, op := range ops[start:end] {
			out.WriteByte(op.kind)
			if line, ok := strings.CutSuffix(op.line, "\n"); ok {
				out.WriteString(line)
				out.WriteByte('\n')
			} else {
				out.WriteString(line)
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.Bytes()
}

// fmtSplitLines splits s after each newline; the last line may lack one.
func fmtSplitLines(s []byte) []string {
	var lines []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, string(s))
			break
		}
		lines = append(lines, string(s[:i+1]))
		s = s[i+1:]
	}
	return lines
}

// fmtEditScript returns the lines of a and b as kept, deleted and added
// lines, deletions before additions within a change.
func fmtEditScript(a, b []string) []fmtDiffOp {
	var ops []fmtDiffOp
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		ops = append(ops, fmtDiffOp{' ', a[pre]})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if (len(ma)+1)*(len(mb)+1) > fmtMaxLCSCells {
		for _, l := range ma {
			ops = append(ops, fmtDiffOp{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, fmtDiffOp{'+', l})
		}
	} else {
		ops = append(ops, fmtLCS(ma, mb)...)
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, fmtDiffOp{' ', l})
	}
	return ops
}

// fmtLCS is the classic dynamic-programming LCS edit script.
func fmtLCS(a, b []string) []fmtDiffOp {
	n, m := len(a), len(b)
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	w := m + 1
	lcs := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	var ops []fmtDiffOp
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, fmtDiffOp{' ', a[i]})
			i++
			j++
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			ops = append(ops, fmtDiffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, fmtDiffOp{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, fmtDiffOp{'-', a[i]})
	}
	for ; j < m; j++ {
		ops = append(ops, fmtDiffOp{'+', b[j]})
	}
	return ops
}
