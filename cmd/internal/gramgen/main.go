// Command gramgen writes a generated gram package to a directory, for
// timing the gramc command itself (see docs/performance.md):
//
//	go run ./cmd/internal/gramgen -tools 10000 -files 100 -o /tmp/pkg10k
//	time gramc check /tmp/pkg10k
//	go run ./cmd/internal/gramgen -document -tools 20000 -o /tmp/doc20k
//	go run ./cmd/internal/gramgen -mistakes -tools 251852 -o /tmp/big
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gramc-dev/gramc/internal/gramgen"
)

func main() {
	tools := flag.Int("tools", 10000, "number of tools")
	files := flag.Int("files", 100, "number of files")
	out := flag.String("o", "", "output directory (created)")
	document := flag.Bool("document", false, "write one file, bench.gram, as BenchmarkParse parses (gramgen.Document)")
	mistakes := flag.Bool("mistakes", false, "write one file, big.gram, of tools with one mistake each, as BenchmarkCheckMistakes checks (gramgen.Mistakes)")
	flag.Parse()
	if *out == "" || *tools < 1 || *files < 1 {
		fmt.Fprintln(os.Stderr, "usage: gramgen -tools N -files M -o DIR")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gramgen:", err)
		os.Exit(1)
	}
	srcs := gramgen.Package(*tools, *files)
	if *document {
		srcs = map[string][]byte{"bench.gram": gramgen.Document(*tools)}
	}
	if *mistakes {
		srcs = map[string][]byte{"big.gram": gramgen.Mistakes(*tools)}
	}
	for name, src := range srcs {
		if err := os.WriteFile(filepath.Join(*out, name), src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gramgen:", err)
			os.Exit(1)
		}
	}
}
