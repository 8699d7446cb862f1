// Package load turns the names a user gives gramc — files, directories and
// "dir/..." patterns, as the go command takes them — into checked gram
// packages. It is the only part of gramc that reads the file system for
// sources: the command-line tools and the language server load through
// it, and check type-checks what it reads (as go/packages sits beside
// go/types).
//
// Patterns work like the go command's: .gram files named together form
// one package; a directory is a package of its .gram files; "dir/..." is
// every directory under dir that holds .gram files, skipping testdata and
// names starting with "." or "_" below dir; a symbolic link named on the
// command line is followed (links below it are not). No patterns means
// "./...".
//
// Only regular files are read (a symbolic link to one is followed), and
// each at most Config.MaxFileSize bytes: a FIFO, a device or /dev/zero
// behind a .gram name is an error that says what it is, never a hang or an
// exhausted memory.
package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/syntax"
)

// DefaultMaxFileSize is the size limit of one .gram file unless
// Config.MaxFileSize says otherwise: far above any real declaration file,
// far below what would exhaust memory.
const DefaultMaxFileSize = 64 << 20

// Config is how to load. The zero value (or nil) loads from disk with the
// default limits.
type Config struct {
	// Overlay maps file paths to contents that replace the file on disk
	// or add a file that is not on disk: an editor's unsaved buffers. A
	// path in the overlay belongs to the package of its directory.
	Overlay map[string][]byte
	// MaxFileSize bounds one file; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// DiagnosticsOnly is for a caller that reads only the diagnostics and
	// the packages' files' names and comments (gramc check, which scopes
	// warnings by gramc:ignore comments): the packages are checked with
	// check.Diagnose, which reports exactly what check.CheckSources does
	// but lets go of trees and declarations as it goes, and each
	// package is read, parsed and checked on its own (up to GOMAXPROCS
	// at a time), so that only those packages' trees are held at once.
	// The packages hold Dir, Name and Files (names, spans and comments)
	// only.
	DiagnosticsOnly bool
	// FS, when set, is the file system every file is read from instead
	// of the operating system's, as go/build's Context.ReadDir and
	// OpenFile let a caller choose: patterns and file names are then its
	// slash-separated paths (io/fs's, "." its root), and nothing else is
	// read. The playground's package in the browser is one.
	FS fs.FS
}

func (c *Config) maxFileSize() int64 {
	if c == nil || c.MaxFileSize <= 0 {
		return DefaultMaxFileSize
	}
	return min(c.MaxFileSize, syntax.MaxFileSize)
}

func (c *Config) overlay(path string) ([]byte, bool) {
	if c == nil || c.Overlay == nil {
		return nil, false
	}
	src, ok := c.Overlay[filepath.Clean(path)]
	if !ok {
		src, ok = c.Overlay[path]
	}
	return src, ok
}

// A Unit is one package's files before they are read: its directory
// ("" for files named on the command line) and its .gram files, sorted.
type Unit struct {
	Dir   string
	Files []string
}

// Expand turns patterns into units without reading any file. A directory
// or file named twice, however spelt (dir, ./dir/, dir/...), is one unit:
// twice would declare everything twice. The error is for a pattern that
// names nothing (a missing path, a directory without .gram files) or a
// directory named that cannot be read. Under "dir/...", an entry that
// cannot be walked (an unreadable directory, a link loop) is a problem —
// an unreadable-file diagnostic — and the walk goes on, as the go command
// does.
func Expand(patterns []string, cfg *Config) ([]Unit, diag.Diagnostics, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	var units []Unit
	var problems diag.Diagnostics
	var named []string
	seenDir := map[string]bool{}
	seenFile := map[string]bool{}
	addDir := func(dir string, files []string) {
		files = append(files, cfg.overlayFiles(dir, files)...)
		slices.Sort(files)
		if seenDir[filepath.Clean(dir)] || len(files) == 0 {
			return
		}
		seenDir[filepath.Clean(dir)] = true
		units = append(units, Unit{Dir: dir, Files: files})
	}
	addFile := func(p string) {
		if !seenFile[filepath.Clean(p)] {
			seenFile[filepath.Clean(p)] = true
			named = append(named, p)
		}
	}
	for _, p := range patterns {
		if root, ok := strings.CutSuffix(filepath.ToSlash(p), "..."); ok {
			root = strings.TrimSuffix(root, "/")
			if root == "" && strings.HasPrefix(p, "/") {
				root = "/"
			} else if root == "" || root == "." {
				root = "."
			}
			dirs, ps, err := cfg.walkDirs(cfg.fromSlash(root))
			if err != nil {
				return nil, nil, err
			}
			problems = append(problems, ps...)
			for _, d := range dirs {
				addDir(d.Dir, d.Files)
			}
			continue
		}
		if _, ok := cfg.overlay(p); ok {
			addFile(p)
			continue
		}
		fi, err := cfg.stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot load %s: %w", p, err)
		}
		if !fi.IsDir() {
			addFile(p)
			continue
		}
		files, err := cfg.gramFiles(p)
		if err != nil {
			return nil, nil, err
		}
		if len(files)+len(cfg.overlayFiles(p, files)) == 0 {
			return nil, nil, fmt.Errorf("no .gram files in %s", p)
		}
		addDir(cfg.clean(p), files)
	}
	if len(named) > 0 {
		units = append(units, Unit{Files: named})
	}
	return units, problems, nil
}

// Problem is the unreadable-file diagnostic of path: it is positioned at
// the file (no line: nothing of it is shown).
func Problem(path string, err error) *diag.Diagnostic {
	return &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeUnreadableFile,
		Summary: "cannot read " + path, Detail: termsafe.Line(err.Error(), 500) + ". The other files are checked without it.",
		Range: ast.Range{File: path}}
}

// overlayFiles are the overlay's .gram files in dir that are not in files.
func (c *Config) overlayFiles(dir string, files []string) []string {
	if c == nil {
		return nil
	}
	var extra []string
	for path := range c.Overlay {
		if strings.HasSuffix(path, ".gram") && filepath.Clean(filepath.Dir(path)) == filepath.Clean(dir) &&
			!slices.ContainsFunc(files, func(f string) bool { return filepath.Clean(f) == filepath.Clean(path) }) {
			extra = append(extra, path)
		}
	}
	return extra
}

// walkDirs returns the directories under root (root included) that hold
// .gram files, in lexical order, and a problem for each entry below root
// that cannot be walked. The error is for root itself.
func (c *Config) walkDirs(root string) ([]Unit, diag.Diagnostics, error) {
	var out []Unit
	var problems diag.Diagnostics
	walk := filepath.WalkDir
	if c.fsys() != nil {
		p, err := fsPath(root)
		if err != nil {
			return nil, nil, err
		}
		root = p
		walk = func(root string, fn fs.WalkDirFunc) error { return fs.WalkDir(c.FS, root, fn) }
	} else {
		root = followRootLink(root)
	}
	err := walk(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return fmt.Errorf("cannot walk %s: %w", path, err)
			}
			problems = append(problems, Problem(path, err))
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if path != root {
			name := d.Name()
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
		}
		files, err := c.gramFiles(path)
		if err != nil {
			if path == root {
				return err
			}
			problems = append(problems, Problem(path, err))
			return filepath.SkipDir
		}
		if len(files) > 0 {
			out = append(out, Unit{Dir: path, Files: files})
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, problems, nil
}

// followRootLink returns root so that filepath.WalkDir walks the directory
// a symbolic link at root points to (as the go command does for
// "link/..."); links below root are not followed.
func followRootLink(root string) string {
	if fi, err := os.Lstat(root); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return root
	}
	if fi, err := os.Stat(root); err == nil && fi.IsDir() {
		return root + string(filepath.Separator)
	}
	return root
}

// gramFiles lists the .gram files of dir, sorted. Entries that are not
// regular files (or links to them) are listed too, so that reading them
// says what they are rather than skipping them silently.
func (c *Config) gramFiles(dir string) ([]string, error) {
	ents, err := c.readDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read directory %s: %w", dir, err)
	}
	var files []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".gram") {
			files = append(files, c.join(dir, e.Name()))
		}
	}
	slices.Sort(files)
	return files, nil
}

// ErrNotRegular and ErrTooLarge are wrapped by ReadFile's errors.
var (
	ErrNotRegular = regular.ErrNotRegular
	ErrTooLarge   = errors.New("file too large")
)

// ReadFile reads one source file: a regular file (a symbolic link to one
// is followed, as the go command does) of at most max bytes. A FIFO, a
// socket, a device or a directory is refused before it is opened for
// reading, so nothing blocks; the size is checked while reading too, as a
// file can grow.
func ReadFile(path string, max int64) ([]byte, error) {
	var b bytes.Buffer
	if err := readInto(&b, path, max); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadText is ReadFile into a string: the parser keeps the text as a
// string, so reading straight into one saves a copy of every file (the
// size of the input, at the parse's peak).
func ReadText(path string, max int64) (string, error) {
	var b strings.Builder
	if err := readInto(&b, path, max); err != nil {
		return "", err
	}
	return b.String(), nil
}

// readInto reads a regular file of at most max bytes into w, sized for
// the file at once.
func readInto(w interface {
	io.Writer
	Grow(int)
	Len() int
}, path string, max int64) error {
	if err := checkLink(path); err != nil {
		return err
	}
	// Opened, then asked what it is: a file swapped for a FIFO between a
	// stat and an open is refused all the same.
	f, fi, err := regular.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return copyBounded(w, f, fi, path, max)
}

// copyBuffers are copyBounded's buffers: io.Copy would make one for
// each file, as neither end has a shortcut (a LimitReader has no WriteTo,
// a strings.Builder no ReadFrom).
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// copyBounded copies f, a regular file whose FileInfo is fi, into w: at
// most max bytes, checked before reading and while reading (a file can
// grow).
func copyBounded(w interface {
	io.Writer
	Grow(int)
	Len() int
}, f io.Reader, fi fs.FileInfo, path string, max int64) error {
	if fi.Size() > max {
		return fmt.Errorf("%s: %w: %d bytes, over the limit of %d", path, ErrTooLarge, fi.Size(), max)
	}
	w.Grow(int(fi.Size()) + 1) // +1: a read that finds the end at once
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	if _, err := io.CopyBuffer(w, io.LimitReader(f, max+1), *buf); err != nil {
		return err
	}
	if int64(w.Len()) > max {
		return fmt.Errorf("%s: %w: over the limit of %d bytes", path, ErrTooLarge, max)
	}
	return nil
}

// ErrNotGram is wrapped by the error of a .gram link to another kind of
// file.
var ErrNotGram = errors.New("a symbolic link to a file that is not a .gram file")

// checkLink follows path when it is a symbolic link: only to a .gram file
// (a link named like a source file must not read secret.env or
// /proc/self/environ into a diagnostic's excerpt), and never round a loop
// or to nothing.
func checkLink(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(pe.Err, fs.ErrNotExist) {
			return fmt.Errorf("%s: a symbolic link to nothing (%s does not exist)", path, termsafe.Line(pe.Path, 200))
		}
		return fmt.Errorf("%s: a symbolic link that cannot be followed: %w", path, err)
	}
	if !strings.HasSuffix(target, ".gram") {
		return fmt.Errorf("%s: %w (%s); it is not read", path, ErrNotGram, termsafe.Line(target, 200))
	}
	return nil
}

// ReadSource returns the text of a .gram file for a diagnostic's excerpt
// under the rules every read follows: a regular .gram file (a link only
// to one) of at most DefaultMaxFileSize bytes. Anything else has no
// excerpt: a file that is not gram is never shown.
func ReadSource(path string) ([]byte, error) {
	if !strings.HasSuffix(path, ".gram") {
		return nil, fmt.Errorf("%s: not a .gram file", path)
	}
	return ReadFile(path, DefaultMaxFileSize)
}

// Read reads unit's files (the overlay first) in order. A file that cannot
// be read is left out, with its problem (an unreadable-file diagnostic).
func Read(u Unit, cfg *Config) ([]syntax.Source, diag.Diagnostics) {
	srcs := make([]syntax.Source, 0, len(u.Files))
	var problems diag.Diagnostics
	for _, name := range u.Files {
		if src, ok := cfg.overlay(name); ok {
			srcs = append(srcs, syntax.Source{Name: name, Src: src})
			continue
		}
		text, err := cfg.readText(name, cfg.maxFileSize())
		if err != nil {
			problems = append(problems, Problem(name, err))
			continue
		}
		srcs = append(srcs, syntax.Source{Name: name, Text: text})
	}
	return srcs, problems
}

// Packages finds, reads, parses and checks the packages named by
// patterns. Files are parsed concurrently and packages checked
// concurrently. A file with a syntax error is reported and the rest of its
// package is still checked; so is a file or directory that cannot be read
// (an unreadable-file diagnostic). The error is for a pattern that names
// nothing; every other problem is a diagnostic. Diagnostics of all
// packages are sorted by position.
func Packages(patterns []string, cfg *Config) ([]*check.Package, diag.Diagnostics, error) {
	units, problems, err := Expand(patterns, cfg)
	if err != nil {
		return nil, nil, err
	}
	if cfg != nil && cfg.DiagnosticsOnly {
		return diagnose(units, problems, cfg)
	}
	var all []syntax.Source
	counts := make([]int, len(units))
	for k, u := range units {
		srcs, ps := Read(u, cfg)
		problems = append(problems, ps...)
		all = append(all, srcs...)
		counts[k] = len(srcs)
	}
	parsed := syntax.ParseFiles(all)
	pkgs := make([]*check.Package, len(units))
	pkgDiags := make([]diag.Diagnostics, len(units))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	i := 0
	for k, u := range units {
		files := make([]check.SourceFile, counts[k])
		for j := range files {
			files[j] = check.SourceFile{AST: parsed[i].File, Diags: parsed[i].Diags}
			i++
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			pkgs[k], pkgDiags[k] = check.CheckSources(u.Dir, files)
		}()
	}
	wg.Wait()
	diags := problems
	for _, ds := range pkgDiags {
		diags = append(diags, ds...)
	}
	diags.Sort()
	return pkgs, diags, nil
}

// diagnose is Packages with Config.DiagnosticsOnly: each package is read,
// parsed and checked (check.Diagnose) on its own, up to GOMAXPROCS at a
// time, so that only their trees are held at once rather than every
// package's. The diagnostics are those of Packages, in the same order.
func diagnose(units []Unit, problems diag.Diagnostics, cfg *Config) ([]*check.Package, diag.Diagnostics, error) {
	pkgs := make([]*check.Package, len(units))
	unread := make([]diag.Diagnostics, len(units))
	pkgDiags := make([]diag.Diagnostics, len(units))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for k, u := range units {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			srcs, ps := Read(u, cfg)
			unread[k] = ps
			files := make([]check.SourceFile, len(srcs))
			for j, r := range syntax.ParseFiles(srcs) {
				files[j] = check.SourceFile{AST: r.File, Diags: r.Diags}
			}
			pkgs[k], pkgDiags[k] = check.Diagnose(u.Dir, files)
		}()
	}
	wg.Wait()
	diags := problems
	for _, ps := range unread {
		diags = append(diags, ps...)
	}
	for _, ds := range pkgDiags {
		diags = append(diags, ds...)
	}
	diags.Sort()
	return pkgs, diags, nil
}
