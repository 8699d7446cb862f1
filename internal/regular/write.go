package regular

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to path whole or not at all, as every file gramc
// writes is written: into a temporary file created anew in path's
// directory (made when missing; never one planted there, nor through a
// symbolic link), mode 0644, then renamed over path, so a reader or a
// crash never sees half a file. A device or a named pipe at path is
// refused: renamed over, it would be replaced (gramc import -o /dev/null,
// run as root, once replaced the device).
func WriteFile(path string, data []byte) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0 {
		return fmt.Errorf("%s is not a regular file: gramc writes a file whole, a temporary file renamed over it, which would replace it; name a regular file", path)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
