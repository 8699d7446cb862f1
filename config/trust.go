package config

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// untrusted says why the gramc.json at path must not be used ("" if it
// may): a symbolic link that leads out of the directory it is in (a
// configuration's diagnostics quote its text, which must not be another
// file's), or a file that another user could have written — owned by
// another user, writable by every user, or in a directory another user
// owns or every user may change (see ownedByOther).
func untrusted(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return "" // Load says what is wrong
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		dir, err1 := filepath.EvalSymlinks(filepath.Dir(path))
		t, err2 := filepath.EvalSymlinks(path)
		if err1 != nil || err2 != nil {
			return "" // Load says what is wrong
		}
		if rel, err := filepath.Rel(dir, t); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return fmt.Sprintf("it is a symbolic link to %s, outside its directory", t)
		}
		target = t
	}
	st, err := os.Stat(target)
	if err != nil {
		return ""
	}
	if why := ownedByOther(st, "it"); why != "" {
		return why
	}
	if st.Mode().Perm()&0o002 != 0 {
		return "every user may write it (chmod o-w)"
	}
	dir := filepath.Dir(target)
	dst, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	if why := ownedByOther(dst, "its directory "+dir); why != "" {
		return why
	}
	if dst.Mode().Perm()&0o002 != 0 && dst.Mode()&fs.ModeSticky == 0 {
		return fmt.Sprintf("every user may change its directory %s", dir)
	}
	return ""
}
