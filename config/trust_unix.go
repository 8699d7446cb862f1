//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownedByOther says that fi (named what) belongs to a user other than
// this one and root ("" when it does not).
func ownedByOther(fi fs.FileInfo, what string) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if uid := int(st.Uid); uid != os.Getuid() && uid != 0 {
		return fmt.Sprintf("%s belongs to another user (uid %d)", what, uid)
	}
	return ""
}
