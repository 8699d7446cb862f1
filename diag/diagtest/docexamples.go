// Package diagtest is the one harness that runs the examples of a
// documentation page of diagnostic codes: docs/diagnostics.md for the
// checker's codes, docs/schema.md for the provider rules, docs/diff.md for
// gramc diff's rules (and any page written the same way). A page gives
// each code a section headed by its name, a severity, and one or more
// ```gram examples; the harness holds the page to the registry (every code
// of the stage documented, no unknown code) and each example to what it
// documents, through a function of the package that owns the codes.
package diagtest

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
)

// Page describes how a page documents its codes.
type Page struct {
	// Path is the page's file, from the test's directory.
	Path string
	// Heading matches the heading of a code's section; its first
	// submatch is the code, any others are given to Run (a target's
	// name). A section runs to the next heading.
	Heading *regexp.Regexp
	// Severity matches, anywhere on the page, a code's documented
	// severity: its submatches are the code and the severity ("error",
	// "warning", "retired", or a word of the page's own: "breaking"); the
	// first match of a code counts.
	Severity *regexp.Regexp
	// Codes are the codes the page must document, each once.
	Codes []diag.Code
	// Run runs a section's examples and reports whether they produce
	// the code with the severity documented ("" and true: they do;
	// else what they produced instead).
	Run func(t *testing.T, s Section) (got string, ok bool)
}

// Section is one code's section of a page.
type Section struct {
	Code     diag.Code
	Heading  []string // the heading's other submatches
	Severity string
	Prose    string   // the text before the first example
	Examples []string // the ```gram blocks, in order
}

var exampleRE = regexp.MustCompile("(?s)```gram\n(.*?)\n```")

// Check runs p's test: every code of p.Codes has a section with a severity
// and an example that Run accepts; no section documents a code outside
// p.Codes.
func Check(t *testing.T, p Page) {
	t.Helper()
	data, err := os.ReadFile(p.Path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	severity := map[diag.Code]string{}
	for _, m := range p.Severity.FindAllStringSubmatch(doc, -1) {
		if _, ok := severity[diag.Code(m[1])]; !ok {
			severity[diag.Code(m[1])] = m[2] // the first the page gives
		}
	}
	want := map[diag.Code]bool{}
	for _, c := range p.Codes {
		want[c] = true
	}
	seen := map[diag.Code]bool{}
	locs := p.Heading.FindAllStringSubmatchIndex(doc, -1)
	for i, loc := range locs {
		end := len(doc)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		s := Section{Code: diag.Code(doc[loc[2]:loc[3]])}
		for j := 4; j+1 < len(loc); j += 2 {
			s.Heading = append(s.Heading, doc[loc[j]:loc[j+1]])
		}
		body := doc[loc[1]:end]
		for _, m := range exampleRE.FindAllStringSubmatch(body, -1) {
			s.Examples = append(s.Examples, m[1])
		}
		s.Prose, _, _ = strings.Cut(body, "```gram")
		if !want[s.Code] {
			t.Errorf("%s documents %s, which is not one of its codes", p.Path, s.Code)
			continue
		}
		seen[s.Code] = true
		var ok bool
		if s.Severity, ok = severity[s.Code]; !ok {
			t.Errorf("%s: %s has no documented severity", p.Path, s.Code)
			continue
		}
		if len(s.Examples) == 0 {
			t.Errorf("%s: %s has no ```gram example", p.Path, s.Code)
			continue
		}
		if got, ok := p.Run(t, s); !ok {
			t.Errorf("%s: the example of %s does not produce it as %s; got:\n%s", p.Path, s.Code, s.Severity, got)
		}
	}
	for _, c := range p.Codes {
		if !seen[c] {
			t.Errorf("code %s has no example in %s", c, p.Path)
		}
	}
}
