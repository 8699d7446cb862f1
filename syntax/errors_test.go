package syntax

import (
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/diag"
)

// TestSyntaxErrors checks that the syntax errors users will write get an
// actionable diagnostic at the right place.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		summary   string // substring of the summary
		detail    string // substring of the detail
	}{
		{"unterminated string", "(a)\n(b {name: \"abc})\n", 2, 11, "unterminated string", "closing \""},
		{"unterminated fenced string", "(a {s: ```\ntext\n})", 1, 8, "unterminated fenced string", "```"},
		{"empty array", "(a {tags: []})", 1, 11, "[] is an empty pattern, not an array", "arrays must not be empty"},
		{"missing ] at end", "[a | b, c\n", 1, 1, `missing "]"`, `Add "]"`},
		{"missing ] before next pattern", "[a | b, c\n\n(d)\n", 1, 1, `missing "]"`, "line 3"},
		{"comma between top-level paths", "(a)-->(b), (c)-->(d)", 1, 10, "top-level patterns are not comma-separated", "subject pattern"},
		{"comment eats brace", "{// comment}", 1, 1, `missing "}"`, "inside a // comment"},
		{"annotation in node", `( @description("x") )`, 1, 3, "annotations cannot appear inside a node", "before a whole top-level pattern"},
		{"annotation in arrow", `()-[ @x("y") ]->()`, 1, 6, "annotations cannot appear inside a relationship", "before a whole top-level pattern"},
		{"empty identified annotation", "@@ (a)", 1, 1, "@@ needs an identifier or labels", "@@id"},
		{"nested map", "(a {x: {y: {z: 1}}})", 1, 12, "maps hold scalars only", "scalar"},
		{"bad escape", `(a {s: "bad \q"})`, 1, 13, `invalid escape sequence "\q"`, `\\`},
		{"mixed arrow", "(a)-[r]=>(b)", 1, 8, "arrow mixes line styles", "same character"},
		{"array of maps", "[t:Tool | (p::Object {fields: [{name: \"a\"}]})]", 1, 32, "inline record fields are not gram", "arrays hold scalars only"},
		{"array of arrays", "{ count: [[1,2],[3,4]] }", 1, 11, "arrays hold scalars only", "not other arrays"},
		{"map entry with ::", "(a {x: {y:: 1}})", 1, 10, `map entries use ":"`, "records attached to patterns"},
		{"annotation in subject pattern", `[ @a(1) x ]`, 1, 3, "annotations cannot appear", "before the whole pattern"},
		{"missing value", "(a {k: })", 1, 8, `unexpected "}"`, "a value"},
		{"half range", "(a {k: 1..})", 1, 11, `unexpected "}"`, "a number to bound the range"},
		{"second record", "{a: 1} {b: 2}", 1, 8, "a record can only be the document header", "first thing in a file"},
		{"bare word at top level", "(a) b", 1, 5, `unexpected symbol "b"`, "Expected a top-level pattern"},
		{"annotation without pattern", "@a(1)", 1, 6, "unexpected end of file", "the annotations apply to"},
		{"arrow without node", "(a)-->", 1, 7, "unexpected end of file", `node "("`},
		{"unclosed node before next line", "(a)\n(b {k: 1}\n(c)\n", 2, 1, `missing ")"`, "line 3"},
		{"mismatched closer", "[a | (b]\n(c)", 1, 6, `missing ")" to close this "("`, `"]" at line 1, column 8`},
		{"old signature form", "(name: Text) --> IO Text", 1, 18, "textual signature is not gram", "(name::String)==>(::String)"},
		{"old signature form in a tool", "[t:Tool | (name: Text) --> IO Text]", 1, 28, "textual signature is not gram", `found symbol "IO"`},
		{"@@ after @", "(a)\n@x(1) @@y (f)\n(g)", 2, 7, "@@ must be the first annotation", "before any @key(value)"},
		{"two @@", "@@a @@b (f)", 1, 5, "@@ must be the first annotation", "at most one"},
		{"stray character", "{ n > 1 }", 1, 5, `unexpected character ">"`, "quoted string"},
		// After good patterns, the broken one is reported exactly as on
		// its own.
		{"mixed arrow after patterns", "[a]\n(b)\n(c)-=>(d)", 3, 5, "arrow mixes line styles", "same character"},
		{"half arrow after patterns", "(a) (b)-(c)", 1, 9, `unexpected "("`, "rest of the arrow"},
		{"arrow without node after patterns", "(a)\n(b)-->\n@x(1) (c)", 3, 1, `unexpected "@"`, `node "("`},
		{"unclosed after patterns", "(a)-->(b)\n[c]\n(d {k: 1}\n", 3, 1, `missing ")"`, "file ends"},
		{"comma after patterns", "(a) (b)-->(c), (d)", 1, 14, "top-level patterns are not comma-separated", "subject pattern"},
		{"nesting after patterns", "(a)\n" + strings.Repeat("[", 1001), 2, 1001, "nesting too deep", "1000 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := ParseFile("x.gram", []byte(tt.src))
			if f == nil {
				t.Fatal("nil file")
			}
			d := firstError(t, diags)
			if int(d.Range.Start.Line) != tt.line || int(d.Range.Start.Column) != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%s)", d.Range.Start.Line, d.Range.Start.Column, tt.line, tt.col, d.Error())
			}
			if !strings.Contains(d.Summary, tt.summary) {
				t.Errorf("summary %q does not contain %q", d.Summary, tt.summary)
			}
			if !strings.Contains(d.Detail, tt.detail) {
				t.Errorf("detail %q does not contain %q", d.Detail, tt.detail)
			}
			// The old forms have their own codes, from the parser too.
			want := map[string]diag.Code{"array of maps": diag.CodeInlineRecord, "old signature form": diag.CodeTextualSignature, "old signature form in a tool": diag.CodeTextualSignature}[tt.name]
			if want == "" {
				want = diag.CodeSyntax
			}
			if d.Code != want || strings.HasSuffix(d.Summary, ".") {
				t.Errorf("code %q, summary %q: want code %s and no full stop", d.Code, d.Summary, want)
			}
			if want := "x.gram:"; !strings.HasPrefix(d.Error(), want) {
				t.Errorf("Error() = %q, want file:line:col prefix", d.Error())
			}
		})
	}
}

func mustFail(t *testing.T, src string) diag.Diagnostics {
	t.Helper()
	_, diags := ParseFile("x.gram", []byte(src))
	return diags
}

func firstError(t *testing.T, diags diag.Diagnostics) *diag.Diagnostic {
	t.Helper()
	errs := diags.Errors()
	if len(errs) == 0 {
		t.Fatal("no error reported")
	}
	return errs[0]
}

// TestNestingLimit checks that very deep nesting is rejected quickly with a
// positioned error instead of exhausting the stack.
func TestNestingLimit(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("[", 1_000_000),
		strings.Repeat("(a {b: ", 200_000),
		strings.Repeat("[a | ", 200_000),
		"{x: " + strings.Repeat("{", 500_000),
	} {
		start := time.Now()
		_, diags := ParseFile("deep.gram", []byte(src))
		elapsed := time.Since(start)
		d := firstError(t, diags)
		if d.Summary != "nesting too deep" {
			t.Errorf("%.10s...: got %s", src, d.Error())
		}
		if d.Range.Start.Offset <= 0 || int(d.Range.Start.Offset) >= len(src) {
			t.Errorf("%.10s...: position %v not inside the input", src, d.Range.Start)
		}
		t.Logf("%.10s... (%d bytes): %v", src, len(src), elapsed)
	}
	// Long paths nest relationships: they count against the same limit.
	for _, src := range []string{
		strings.Repeat("()-->", 100_000) + "()",
		"[a | " + strings.Repeat("()-->", 100_000) + "()]",
	} {
		d := firstError(t, mustFail(t, src))
		if d.Summary != "path too long" || d.Range.Start.Offset != 5*MaxNesting+2 && d.Range.Start.Offset != 5*MaxNesting+2+5 {
			t.Errorf("%.10s...: got %s at offset %d", src, d.Error(), d.Range.Start.Offset)
		}
	}
	okPath := strings.Repeat("()-->", MaxNesting) + "()"
	if _, diags := ParseFile("ok.gram", []byte(okPath)); diags.HasErrors() {
		t.Errorf("path of %d relationships rejected: %v", MaxNesting, diags.Err())
	}
	// Exactly MaxNesting levels are accepted.
	ok := strings.Repeat("[|", MaxNesting) + "x" + strings.Repeat("]", MaxNesting)
	if _, diags := ParseFile("ok.gram", []byte(ok)); diags.HasErrors() {
		t.Errorf("%d levels rejected: %v", MaxNesting, diags.Err())
	}
}

// TestRelated checks that bracket errors point at the other place that
// explains them.
func TestRelated(t *testing.T) {
	for _, tt := range []struct {
		src       string
		line, col int
	}{
		{"[a | (b]\n(c)", 1, 8},
		{"[a | b, c\n\n(d)\n", 3, 1},
	} {
		_, diags := ParseFile("x.gram", []byte(tt.src))
		d := firstError(t, diags)
		if len(d.Related) != 1 || int(d.Related[0].Range.Start.Line) != tt.line || int(d.Related[0].Range.Start.Column) != tt.col || d.Related[0].Message == "" {
			t.Errorf("%q: related %+v, want one at %d:%d", tt.src, d.Related, tt.line, tt.col)
		}
	}
}

// TestPartialFile checks that a file with a syntax error still yields the
// patterns that parsed.
func TestPartialFile(t *testing.T) {
	for _, src := range []string{
		"{h: 1}\n(a)\n[b | c]\n(d {s: \"unterminated})\n(e)",
		"{h: 1}\n(a)\n[b | c]\n(d {k: [{x: 1}]})\n(e)",
		"{h: 1}\n(a)\n[b | c]\n(d)-->(e), (f)",
		"{h: 1}\n(a)\n[b | c]\n@x(1) @@y (f)\n(g)",
	} {
		f, diags := ParseFile("x.gram", []byte(src))
		if !diags.HasErrors() {
			t.Fatalf("%q: no error", src)
		}
		if f.Header == nil || len(f.Patterns) < 2 {
			t.Errorf("%q: partial file has header %v and %d patterns, want the header and at least 2", src, f.Header, len(f.Patterns))
		}
	}
}
