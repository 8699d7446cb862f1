package explain

import (
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/docs"
)

// TestExplainFixes (issue 36.7): gramc explain prints, beside a code's
// example, the message the example produces and the fix — a corrected
// example that checks clean: no error, and not the code. Every fix shown
// is checked here, the documented ones and the ones gramc check --fix
// makes, and every code whose example the checker reports shows one.
// Parallel to docs' TestExplainEveryCode (the same walk over the codes'
// explanations): that test holds what the pages give, this one the fix.
func TestExplainFixes(t *testing.T) {
	for _, c := range diag.Codes() {
		if c.Retired != "" {
			continue
		}
		text, ok := docs.Explain(string(c.Code))
		if !ok {
			continue
		}
		x := explainExample(c.Code, text)
		if x.example == "" || len(x.messages) == 0 {
			continue // not a checker example (a target's, a diff's)
		}
		if x.fix == "" {
			t.Errorf("%s: gramc explain shows no fix: give docs/diagnostics.md's section a \"The fix:\" block", c.Code)
			continue
		}
		if out := x.render(text); !strings.Contains(out, "It produces:\n\n    "+x.messages[0]) || !strings.Contains(out, x.fix) {
			t.Errorf("%s: gramc explain prints:\n%s", c.Code, out)
		}
		for _, d := range checkExample(x.fix + "\n") {
			if d.Code == c.Code || d.Severity == diag.Error {
				t.Errorf("%s: the fix (%s) does not check clean: %s\n%s", c.Code, x.fixNote, d.Error(), x.fix)
			}
		}
	}
}
