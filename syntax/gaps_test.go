package syntax

import (
	"github.com/gramc-dev/gramc/syntax/reftree"
	"testing"

	"github.com/gramc-dev/gramc/ast"
)

// TestTokenGaps checks the places where the reference grammar splits what
// looks like one token into several, so that whitespace may stand between
// the parts: a tag and its backtick string (tag `x`), and the opening
// fence, its tag and the line break of a fenced string (``` md \r\n), and
// the text of a quoted string and its closing quote ("abc<newline>").
// "true" and "false" are booleans before a backtick, never tags.
func TestTokenGaps(t *testing.T) {
	tests := []struct {
		src   string
		ok    bool
		tag   string // tag of the value of the record property k
		value string // decoded value of that property
	}{
		{"({k: date `2024`})", true, "date", "2024"},
		{"({k: date\n  `2024`})", true, "date", "2024"},
		{"({k: date \t\r\n``})", true, "date", ""},
		{"({k: [a `x`, b`y`]})", true, "", ""},
		{"@k(t `v`) ()", true, "", ""},
		{"({k: ```\r\nline\r\n```})", true, "", "line\r\n"},
		{"({k: ```  \t\nline\n```})", true, "", "line\n"},
		{"({k: ``` md \r\n# t\n```})", true, "md", "# t\n"},
		{"({k: ```md\r\n```})", true, "md", ""},
		{"({k: true`x`})", false, "", ""},
		{"({k: false `x`})", false, "", ""},
		{"({k: date // c\n `x`})", false, "", ""},
		{"({k: ``` // c\nx```})", false, "", ""},
		{"({k: ```md x\ny```})", false, "", ""},
		{"({k: ```\n\r```})", true, "", "\r"},
		{"({k: \"abc\n\"})", true, "", "abc"},
		{"({k: 'a\\'b\n \t\n  '})", true, "", "a'b"},
		{"({k: t`a\n`})", true, "t", "a"},
		{"({k: \"\n\"})", true, "", ""},
		{"({k: \"a\nb\"})", false, "", ""},
		{"({k: \"a\n// c\n\"})", false, "", ""},
		{"({k: \"// x\"})", false, "", ""},
		{"({k: '  // x'})", false, "", ""},
		{"({k: u`//cdn`})", false, "", ""},
		{"({k: \"// x\n\"})", true, "", "// x"},
		{"({k: \"a // x\"})", true, "", "a // x"},
		{"({k: \"/x\"})", true, "", "/x"},
		{"({k: ```\n// x```})", false, "", ""},
		{"({k: ```\n\n  // x\n```})", true, "", "\n  // x\n"},
		{"({k: \"a\x00b\"})", false, "", ""},
		{"({k: ```\na\x00b```})", false, "", ""},
		{"({k: 1}) // a\x00b", false, "", ""},
		{"(a `x`)", false, "", ""},
		{"[a | b `x`]", false, "", ""},
	}
	for _, tt := range tests {
		f, diags := ParseFile("x.gram", []byte(tt.src))
		if got := !diags.HasErrors(); got != tt.ok {
			t.Errorf("%q: ok=%v, want %v (%v)", tt.src, got, tt.ok, diags.Err())
			continue
		}
		ref, refOK := parseReference("x.gram", []byte(tt.src))
		if refOK != tt.ok {
			t.Errorf("%q: reference grammar ok=%v, want %v", tt.src, refOK, tt.ok)
		}
		if !tt.ok || tt.tag == "" && tt.value == "" {
			continue
		}
		if reftree.Sexp(ref) != reftree.Sexp(f) {
			t.Errorf("%q: reference grammar tree %s, ParseFile %s", tt.src, reftree.Sexp(ref), reftree.Sexp(f))
		}
		n := f.Patterns[0].(*ast.NodePattern)
		v := n.Subject.Record.Properties[0].Value
		switch v := v.(type) {
		case *ast.TaggedString:
			if v.Tag != tt.tag || v.Value != tt.value {
				t.Errorf("%q: tag %q value %q, want %q %q", tt.src, v.Tag, v.Value, tt.tag, tt.value)
			}
		case *ast.String:
			if tt.tag != "" || v.Value != tt.value {
				t.Errorf("%q: string %q, want tag %q value %q", tt.src, v.Value, tt.tag, tt.value)
			}
		default:
			t.Errorf("%q: value %T", tt.src, v)
		}
	}
}
