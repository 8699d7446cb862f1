package core

import (
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// Files is an fs.FS of one directory, its root: the loader reads the
// package through it (load.Config.FS), so a visitor's files reach the
// loader and the compiler and nothing of the browser's or Node's file
// system.
var _ fs.FS = Files(nil)

// Open opens a file of the package, or "." (the package's directory).
func (files Files) Open(name string) (fs.File, error) {
	if name == "." {
		return &dir{files: files}, nil
	}
	text, ok := files[name]
	if !ok || !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &file{info: info{name: name, size: int64(len(text))}, r: strings.NewReader(text)}, nil
}

// info is a file's or the directory's fs.FileInfo and fs.DirEntry.
type info struct {
	name  string
	size  int64
	isDir bool
}

func (i info) Name() string { return i.name }
func (i info) Size() int64  { return i.size }
func (i info) Mode() fs.FileMode {
	if i.isDir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i info) ModTime() time.Time         { return time.Time{} }
func (i info) IsDir() bool                { return i.isDir }
func (i info) Sys() any                   { return nil }
func (i info) Type() fs.FileMode          { return i.Mode().Type() }
func (i info) Info() (fs.FileInfo, error) { return i, nil }

type file struct {
	info
	r *strings.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *file) Close() error               { return nil }

// dir is the package's directory: its entries are the files, by name.
type dir struct {
	files   Files
	entries []fs.DirEntry // nil until the first ReadDir
	next    int
}

func (d *dir) Stat() (fs.FileInfo, error) { return info{name: ".", isDir: true}, nil }
func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: fs.ErrInvalid}
}
func (d *dir) Close() error { return nil }

// ReadDir is fs.ReadDirFile's: the files by name, n at a time (all for
// n <= 0).
func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.entries == nil {
		d.entries = []fs.DirEntry{}
		for name, text := range d.files {
			d.entries = append(d.entries, info{name: name, size: int64(len(text))})
		}
		slices.SortFunc(d.entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
	rest := d.entries[d.next:]
	if n <= 0 {
		d.next = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	d.next += len(rest)
	return rest, nil
}
