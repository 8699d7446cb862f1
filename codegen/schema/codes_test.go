package schema

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/diag/diagtest"
	"github.com/gramc-dev/gramc/docs"
	"github.com/gramc-dev/gramc/syntax"
)

// docRowRE is a target code's row in docs/schema.md's table.
var docRowRE = regexp.MustCompile("(?m)^\\| `(target-[a-z-]+)` \\| (error|warning)")

// TestDocExamples runs the examples of docs/schema.md with the harness
// check's TestDocExamples runs docs/diagnostics.md's with: every target
// code has a row in the table and (unless retired) an example, the package
// linted for the example's target, that reports the code with the row's
// severity in the example's file. The examples are read from the page,
// never copied here.
func TestDocExamples(t *testing.T) {
	var live []diag.Code
	for _, c := range diag.CodesOf(diag.StageTarget) {
		if info, _ := diag.Lookup(c); info.Retired == "" {
			live = append(live, c)
		}
	}
	diagtest.Check(t, diagtest.Page{
		Path:     "../../docs/schema.md",
		Heading:  regexp.MustCompile("(?m)^#### `(target-[a-z-]+)` for `([a-z-]+)`\n"),
		Severity: docRowRE,
		Codes:    live,
		Run: func(t *testing.T, s diagtest.Section) (string, bool) {
			if strings.Contains(s.Prose, "```") {
				return "another code block before the gram example", false
			}
			target := Target(s.Heading[0])
			f, ds := syntax.ParseString("example.gram", s.Examples[0])
			pkg, ds := check.CheckSources("", []check.SourceFile{{AST: f, Diags: ds}})
			if ds.HasErrors() {
				return "the example does not check: " + ds.Err().Error(), false
			}
			lint := Lint(pkg, []Target{target})
			for _, d := range lint {
				if d.Code == s.Code && d.Severity.String() == s.Severity && (d.Range.File == "example.gram" || s.Code == diag.CodeTargetUnknown) {
					return "", true
				}
			}
			return fmt.Sprint(lint), false
		},
	})
	// A retired code keeps its row.
	data := docs.Page("schema.md")
	rows := map[string]bool{}
	for _, m := range docRowRE.FindAllStringSubmatch(data, -1) {
		rows[m[1]] = true
	}
	for _, c := range diag.CodesOf(diag.StageTarget) {
		if !rows[string(c)] {
			t.Errorf("%s has no row in docs/schema.md's table", c)
		}
	}
}
