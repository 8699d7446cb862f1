package compat_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/load"
)

// Compare lists every change from one version of a package's tools to the
// next, each with its code and severity: what gramc diff prints.
func ExampleCompare() {
	// Alike in shape to the runtime's and cassette's examples on purpose:
	// each is a whole program a reader copies (a temporary directory, a
	// package, the call, its printed output).
	dir, err := os.MkdirTemp("", "compat")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	version := func(name, src string) []*check.Package {
		d := filepath.Join(dir, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "t.gram"), []byte(src), 0o644); err != nil {
			log.Fatal(err)
		}
		ps, ds, err := load.Packages([]string{d}, nil)
		if err != nil || ds.HasErrors() {
			log.Fatal(err, ds)
		}
		return ps
	}
	old := version("old", `[weather:Tool {description: "Weather"} |
  (city::String)==>(days::Number {optional: true, default: 1})==>(::String)]
`)
	new := version("new", `[weather:Tool {description: "Weather"} |
  (city::String)==>(days::Number {default: 1.0})==>(units::String)==>(::String)]
`)
	// The default 1 -> 1.0 is the same number: no change.
	for _, c := range compat.Compare(old, new) {
		fmt.Printf("%s %s: %s\n", c.Severity, c.Code, c.Message)
	}
	// Output:
	// breaking diff-param-added-required: required parameter units was added: a call written for the old version lacks it
}
