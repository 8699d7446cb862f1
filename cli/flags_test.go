package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestEveryFlagIsDocumentedAndTested: every flag of every command is
// named, as --name, on a documentation page (README.md or docs/*.md) and
// in a testscript (testdata/script/*.txtar), so a new flag fails here until
// both are written (docs/changing.md's "CLI flag" row).
func TestEveryFlagIsDocumentedAndTested(t *testing.T) {
	read := func(pattern string) string {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v", pattern, err)
		}
		var b strings.Builder
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
		}
		return b.String()
	}
	docs := read("../README.md") + read("../docs/*.md")
	scripts := read("testdata/script/*.txtar")
	root := newRootCmd(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" || f.Hidden {
				return
			}
			n++
			name := "--" + f.Name
			in := func(text string) bool {
				return mentions(text, name) || f.Shorthand != "" && mentions(text, " -"+f.Shorthand)
			}
			if !in(docs) {
				t.Errorf("%s %s is named on no documentation page (README.md, docs/*.md)", c.CommandPath(), name)
			}
			if !in(scripts) {
				t.Errorf("%s %s is used in no testscript (cli/testdata/script)", c.CommandPath(), name)
			}
		})
		for _, sub := range c.Commands() {
			if sub.Name() != "completion" { // cobra's own, documented by cobra
				walk(sub)
			}
		}
	}
	walk(root)
	if n < 20 {
		t.Fatalf("found %d flags; the test is broken", n)
	}
}

// mentions reports whether text holds name as a whole flag: not followed
// by a letter, digit or dash (--fail matches --fail-on otherwise).
func mentions(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		end := i + j + len(name)
		if end == len(text) || !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789-", rune(text[end])) {
			return true
		}
		i = end
	}
}
