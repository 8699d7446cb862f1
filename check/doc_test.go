package check

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/diag/diagtest"
)

// TestDocExamples proves that docs/diagnostics.md documents every code
// with an example that produces it (with the documented severity), and
// documents no code the checker does not know (the harness is
// diagtest.Check, shared with the target and diff pages).
func TestDocExamples(t *testing.T) {
	diagtest.Check(t, diagtest.Page{
		Path:     "../docs/diagnostics.md",
		Heading:  regexp.MustCompile("(?m)^### `([a-z0-9-]+)`\\s*$"),
		Severity: regexp.MustCompile("(?m)^### `([a-z0-9-]+)`\\s*\n\n\\*(error|warning|retired)\\*\\."),
		Codes:    Codes(),
		Run: func(t *testing.T, s diagtest.Section) (string, bool) {
			src := []byte(s.Examples[0])
			if info, _ := diag.Lookup(s.Code); (info.Retired != "") != (s.Severity == "retired") {
				return "documented as " + s.Severity + ", but the registry disagrees", false
			}
			pkg, ds := loadSource(string(s.Code)+".gram", src)
			if s.Severity != "retired" {
				ds = Suppress(pkg.Files, ds, Codes())
			}
			var got []string
			found := false
			for _, d := range ds {
				found = found || d.Code == s.Code && d.Severity.String() == s.Severity
				got = append(got, d.Error())
			}
			if s.Severity == "retired" {
				// The example shows what is accepted now: no diagnostic.
				return strings.Join(got, "\n"), len(ds) == 0
			}
			return strings.Join(got, "\n"), found
		},
	})
}
