package load

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gramc-dev/gramc/internal/regular"
)

// The file-system seam: every read of the loader goes through these
// methods, to Config.FS when it is set and to the operating system
// otherwise (go/build's Context does the same with its ReadDir and
// OpenFile hooks). Only the operating system has symbolic links, FIFOs
// and devices; an fs.FS gives files and directories, and a file that is
// not regular is refused all the same.

// fsys is c.FS, nil for the operating system's.
func (c *Config) fsys() fs.FS {
	if c == nil {
		return nil
	}
	return c.FS
}

// fsPath is name as a path of c.FS: slash-separated, cleaned, "." for
// its root. A path that leaves the root is an error (fs.ErrInvalid).
func fsPath(name string) (string, error) {
	p := path.Clean(filepath.ToSlash(name))
	if !fs.ValidPath(p) {
		return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return p, nil
}

func (c *Config) stat(name string) (fs.FileInfo, error) {
	return through(c, name, os.Stat, fs.Stat)
}

func (c *Config) readDir(dir string) ([]fs.DirEntry, error) {
	return through(c, dir, os.ReadDir, fs.ReadDir)
}

// through is onOS(name) for the operating system's file system, and
// inFS(c.FS, name) with name as a path of c.FS otherwise.
func through[T any](c *Config, name string, onOS func(string) (T, error), inFS func(fs.FS, string) (T, error)) (T, error) {
	if c.fsys() == nil {
		return onOS(name)
	}
	p, err := fsPath(name)
	if err != nil {
		var zero T
		return zero, err
	}
	return inFS(c.FS, p)
}

// join, clean and fromSlash are filepath's for the operating system and
// path's for an fs.FS.
func (c *Config) join(dir, name string) string {
	if c.fsys() == nil {
		return filepath.Join(dir, name)
	}
	return path.Join(dir, name)
}

func (c *Config) clean(name string) string {
	if c.fsys() == nil {
		return filepath.Clean(name)
	}
	return path.Clean(name)
}

func (c *Config) fromSlash(name string) string {
	if c.fsys() == nil {
		return filepath.FromSlash(name)
	}
	return name
}

// readText is ReadText through the seam: a regular file of at most max
// bytes.
func (c *Config) readText(name string, max int64) (string, error) {
	if c.fsys() == nil {
		return ReadText(name, max)
	}
	p, err := fsPath(name)
	if err != nil {
		return "", err
	}
	f, err := c.FS.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, regular.Kind(fi.Mode()))
	}
	var b strings.Builder
	if err := copyBounded(&b, f, fi, name, max); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ReadSource is the package-level ReadSource through the seam: the text
// of a .gram file for a diagnostic's excerpt, the overlay's first.
func (c *Config) ReadSource(name string) ([]byte, error) {
	if src, ok := c.overlay(name); ok {
		return src, nil
	}
	if c.fsys() == nil {
		return ReadSource(name)
	}
	if !strings.HasSuffix(name, ".gram") {
		return nil, fmt.Errorf("%s: not a .gram file", name)
	}
	text, err := c.readText(name, c.maxFileSize())
	return []byte(text), err
}
