//go:build unix

package regular

import (
	"os"
	"syscall"
)

// openNonBlocking opens path with O_NONBLOCK, which makes opening a FIFO
// return at once (and is no matter for reading a regular file).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
