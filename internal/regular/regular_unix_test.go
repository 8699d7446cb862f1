//go:build unix

package regular

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpen: a regular file opens and reads; a FIFO is refused at once,
// saying what it is, where opening it for reading would wait for a writer
// for ever (issue 35.3); a directory is refused too.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "gramc.json")
	os.WriteFile(file, []byte("{}"), 0o644)
	f, fi, err := Open(file)
	if err != nil || fi.Size() != 2 {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != "{}" {
		t.Errorf("read %q", data)
	}
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, _, err := Open(fifo); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a named pipe") {
		t.Errorf("a FIFO: %v", err)
	}
	if _, _, err := Open(dir); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a directory") {
		t.Errorf("a directory: %v", err)
	}
}
