package syntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/ast"
)

const fourErrors = `(a)-->
[ok1:Tool {description: "d"} | (x::String)==>(::String)]
(b {k: "unterminated})
[ok2:Tool {description: "d"} | (x::String)==>(::String)]
[oops | (a)--(b) --]
(c)=>(d)
[ok3:Tool {description: "d"} | (x::String)==>(::String)]
# not a comment
`

// TestRecovery: every syntax error of a file is reported, each at its
// place, as go/parser reports past bad code (before, only the first was),
// and the partial tree holds the valid patterns between them (issue 10.4).
func TestRecovery(t *testing.T) {
	f, ds := ParseString("four.gram", fourErrors)
	var at []string
	for _, d := range ds {
		at = append(at, fmt.Sprintf("%d:%d", d.Range.Start.Line, d.Range.Start.Column))
	}
	if got, want := strings.Join(at, " "), "2:1 3:8 5:20 6:4 8:1"; got != want {
		t.Errorf("errors at %s, want %s:\n%v", got, want, ds)
	}
	var names []string
	for _, p := range f.Patterns {
		if sp, ok := p.(*ast.SubjectPattern); ok && sp.Identifier != nil {
			names = append(names, sp.Identifier.Name)
		}
	}
	// oops, whose error is inside its brackets, is kept as far as it
	// parses, as a pattern with an error in a group always was.
	if got := strings.Join(names, " "); got != "ok1 ok2 oops ok3" {
		t.Errorf("the partial tree holds %q, want the three valid tools", got)
	}
	// Positions in the partial tree are the file's.
	for _, p := range f.Patterns {
		if sp, ok := p.(*ast.SubjectPattern); ok && sp.Identifier != nil && sp.Identifier.Name == "ok3" && sp.Pos().Line != 7 {
			t.Errorf("ok3 at line %d, want 7", sp.Pos().Line)
		}
	}
}

// TestRecoveryBounded: a file of nothing but errors stops recovering after
// MaxSyntaxErrors, saying so.
func TestRecoveryBounded(t *testing.T) {
	_, ds := ParseString("many.gram", strings.Repeat("(a)=>(b)\n", 3*MaxSyntaxErrors))
	said := false
	for _, d := range ds {
		said = said || strings.Contains(d.Summary, "too many syntax errors (100)")
	}
	if len(ds) != MaxSyntaxErrors+1 || !said {
		t.Errorf("%d diagnostics, the limit said: %v", len(ds), said)
	}
}
