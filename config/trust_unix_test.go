//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUntrustedNotUsed: a gramc.json that another user could have written
// (writable by every user, in a directory every user may change without
// the sticky bit), or a symbolic link out of its directory, is not used,
// and a diagnostic says why; a FIFO is refused without blocking (issue
// 35.3). A link within the directory is followed.
func TestUntrustedNotUsed(t *testing.T) {
	const good = `{"disable": ["target-keyword-in-description"]}`
	write := func(path string, perm os.FileMode) {
		t.Helper()
		if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, perm); err != nil {
			t.Fatal(err)
		}
	}
	// inDir writes a good gramc.json in the directory name, of mode.
	inDir := func(name string, mode os.FileMode) func(dir string) string {
		return func(dir string) string {
			sub := filepath.Join(dir, name)
			os.Mkdir(sub, 0o755)
			os.Chmod(sub, mode)
			p := filepath.Join(sub, FileName)
			write(p, 0o644)
			return p
		}
	}
	for _, tc := range []struct {
		name  string
		setup func(dir string) string // returns the gramc.json path
		why   string                  // "" when used
	}{
		{"plain", func(dir string) string { p := filepath.Join(dir, FileName); write(p, 0o644); return p }, ""},
		{"world-writable", func(dir string) string { p := filepath.Join(dir, FileName); write(p, 0o666); return p }, "every user may write it"},
		{"open directory", inDir("open", 0o777), "every user may change its directory"},
		{"sticky directory", inDir("tmp", 0o777|os.ModeSticky), ""},
		{"link out", func(dir string) string {
			outside := filepath.Join(dir, "secret.json")
			write(outside, 0o644)
			sub := filepath.Join(dir, "proj")
			os.Mkdir(sub, 0o755)
			p := filepath.Join(sub, FileName)
			os.Symlink(outside, p)
			return p
		}, "is a symbolic link to"},
		{"link within", func(dir string) string {
			write(filepath.Join(dir, "shared.json"), 0o644)
			p := filepath.Join(dir, FileName)
			os.Symlink("shared.json", p)
			return p
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.setup(t.TempDir())
			c, ds := Load(p)
			if tc.why == "" {
				if len(ds) != 0 || c == nil || len(c.Disable) != 1 {
					t.Errorf("not used: %v %+v", ds, c)
				}
				return
			}
			if c != nil || len(ds) != 1 || !strings.Contains(ds[0].Summary, "gramc.json is not used: ") || !strings.Contains(ds[0].Summary, tc.why) {
				t.Errorf("used, or not said why (%q): %v %+v", tc.why, ds, c)
			}
		})
	}
	fifo := filepath.Join(t.TempDir(), FileName)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if c, ds := Load(fifo); c != nil || len(ds) != 1 || !strings.Contains(ds[0].Summary, "a named pipe") {
		t.Errorf("a FIFO: %v %+v", ds, c)
	}
}
