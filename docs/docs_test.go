package docs_test

import (
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/docs"
)

// TestExplainEveryCode: gramc explain knows every registered code, from
// the pages themselves (one source), with its severity and an example or
// its meaning.
//
// Parallel to check/explain's TestExplainFixes: the same walk over every
// registered code's explanation; this test holds what the pages give,
// that one the fix gramc explain prints.
func TestExplainEveryCode(t *testing.T) {
	for _, c := range diag.Codes() {
		text, ok := docs.Explain(string(c.Code))
		if !ok {
			t.Errorf("no explanation of %s", c.Code)
			continue
		}
		if !strings.HasPrefix(text, "### `"+string(c.Code)+"`") || len(text) < 60 {
			t.Errorf("%s: explanation %q", c.Code, text)
		}
		if (c.Stage == diag.StageTarget || c.Stage == diag.StageDiff) && !strings.Contains(text, "```gram\n") {
			t.Errorf("%s: explanation has no example:\n%s", c.Code, text)
		}
		if c.Retired == "" && !strings.Contains(text, c.Severity.String()) {
			t.Errorf("%s: explanation does not give its severity %s:\n%s", c.Code, c.Severity, text)
		}
	}
	if _, ok := docs.Explain("no-such-code"); ok {
		t.Error("explained an unknown code")
	}
}
