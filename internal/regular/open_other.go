//go:build !unix

package regular

import (
	"fmt"
	"os"
)

// openNonBlocking refuses what is not a regular file before opening it.
func openNonBlocking(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, Kind(fi.Mode()))
	}
	return os.Open(path)
}
