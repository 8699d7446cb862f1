//go:build unix

package load

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Loading reads regular files only, with a size limit, for every command
// (issue 12.4): a FIFO named *.gram does not hang, a link to /dev/zero
// does not exhaust memory, and each error says what the file is.
func TestIrregularFiles(t *testing.T) {
	dir := t.TempDir()
	good := "[one:Tool {description: \"d\"} | (x::String)==>(::String)]\n"
	if err := os.WriteFile(filepath.Join(dir, "one.gram"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.gram")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	_, _, err := Packages([]string{dir}, nil)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("a FIFO: %v", err)
	}
	os.Remove(fifo)
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.gram")); err != nil {
		t.Fatal(err)
	}
	_, _, err = Packages([]string{dir + "/..."}, nil)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
		t.Errorf("a link to /dev/zero: %v", err)
	}
	os.Remove(filepath.Join(dir, "zero.gram"))
	// A link to a regular file is followed, as the go command does.
	other := filepath.Join(t.TempDir(), "real.gram")
	os.WriteFile(other, []byte(strings.ReplaceAll(good, "one", "two")), 0o644)
	if err := os.Symlink(other, filepath.Join(dir, "link.gram")); err != nil {
		t.Fatal(err)
	}
	pkgs, ds, err := Packages([]string{dir}, nil)
	if err != nil || len(ds) != 0 || len(pkgs) != 1 || len(pkgs[0].Tools) != 2 {
		t.Errorf("a link to a regular file: %v %v", err, ds)
	}
	// The size limit.
	_, _, err = Packages([]string{dir}, &Config{MaxFileSize: 10})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over the limit of 10") {
		t.Errorf("size limit: %v", err)
	}
}
