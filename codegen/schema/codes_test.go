package schema

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

var (
	docRowRE     = regexp.MustCompile("(?m)^\\| `(target-[a-z-]+)` \\| (error|warning)")
	docExampleRE = regexp.MustCompile("(?m)^#### `(target-[a-z-]+)` for `([a-z-]+)`\n\n(?s:(.*?))```gram\n((?s:.*?))\n```")
)

// TestDocExamples runs the examples of docs/schema.md, as check's
// TestDocExamples runs docs/diagnostics.md's: every target code has a row
// in the table and an example, the package linted for the example's
// target, that reports the code with the row's severity in the example's
// file. The examples are read from the page, never copied here.
func TestDocExamples(t *testing.T) {
	data, err := os.ReadFile("../../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	severity := map[diag.Code]string{}
	for _, m := range docRowRE.FindAllStringSubmatch(doc, -1) {
		severity[diag.Code(m[1])] = m[2]
	}
	examples := map[diag.Code]bool{}
	for _, m := range docExampleRE.FindAllStringSubmatch(doc, -1) {
		code, target, src := diag.Code(m[1]), Target(m[2]), m[4]
		if strings.Contains(m[3], "```") {
			t.Errorf("%s: the example section holds another code block before its gram example", code)
		}
		examples[code] = true
		sev, ok := severity[code]
		if !ok {
			t.Errorf("%s: an example, but no row in the table", code)
			continue
		}
		f, ds := syntax.ParseString("example.gram", src)
		pkg, ds := check.CheckSources("", []check.SourceFile{{AST: f, Diags: ds}})
		if ds.HasErrors() {
			t.Errorf("%s: example does not check: %v", code, ds.Err())
			continue
		}
		found := false
		lint := Lint(pkg, []Target{target})
		for _, d := range lint {
			if d.Code == code && d.Severity.String() == sev && (d.Range.File == "example.gram" || code == diag.CodeTargetUnknown) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the example does not report it as %s for %s: %v", code, sev, target, lint)
		}
	}
	for _, c := range diag.CodesOf(diag.StageTarget) {
		if _, ok := severity[c]; !ok {
			t.Errorf("%s has no row in docs/schema.md's table", c)
		}
		if info, _ := diag.Lookup(c); info.Retired == "" && !examples[c] {
			t.Errorf("%s has no example in docs/schema.md", c)
		}
	}
}
