// Command parseonly parses gram files with package syntax and nothing else.
// It exists to measure the parser's peak memory apart from the gramc
// command's fixed start-up cost (which links the checker, the emitters and
// the runtime):
//
//	go build -o /tmp/parseonly ./cmd/internal/parseonly
//	/usr/bin/time -f '%M KB' /tmp/parseonly bench.gram
//
// It prints, per file, the number of top-level patterns and syntax errors,
// and exits 1 if any file has errors.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gramc-dev/gramc/syntax"
)

func main() {
	status := 0
	for _, path := range os.Args[1:] {
		text, err := readString(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		f, diags := syntax.ParseString(path, text)
		fmt.Printf("%s: %d patterns, %d errors\n", path, len(f.Patterns), len(diags))
		if diags.HasErrors() {
			status = 1
		}
	}
	os.Exit(status)
}

// readString reads a file straight into a string, without the copy that
// converting an os.ReadFile result would make, so the figure is the
// parser's alone.
func readString(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 && fi.Size() <= syntax.MaxFileSize {
		b.Grow(int(fi.Size()) + 1) // +1 lets io.Copy see EOF without growing
	}
	if _, err := io.Copy(&b, f); err != nil {
		return "", err
	}
	return b.String(), nil
}
