//go:build !unix

package cli

import "io/fs"

// fileReplaceable: without Unix's link counts and owners, a file is
// rewritten in place behind a backup.
func fileReplaceable(fs.FileInfo) bool { return false }
