// Package regular opens files that gramc reads whole — a configuration,
// a token, a cassette, a snapshot — only when they are regular files: a
// named pipe (FIFO), a device or a socket planted under such a name is
// refused, without blocking on it, rather than read.
package regular

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by Open's error for anything but a regular
// file.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading if it is a regular file (after symbolic
// links), and returns it with its FileInfo. Opening never blocks: a FIFO
// is opened without waiting for a writer, then refused.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, Kind(fi.Mode()))
	}
	return f, fi, nil
}

// Kind names the kind of file m is, for a message.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
