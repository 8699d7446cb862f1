//go:build unix

package cli

import (
	"io/fs"
	"os"
	"syscall"
)

// fileReplaceable reports whether a new file renamed over fi's loses
// nothing: it has no other hard link and this user and group own it.
func fileReplaceable(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 1 && int(st.Uid) == os.Getuid() && int(st.Gid) == os.Getgid()
}
