package syntax

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
)

// syntaxError turns a scanner error or where the document grammar stopped
// into one actionable diagnostic. (Errors inside brackets come from the
// hand-written parser, which words its own.) It looks at the token where
// the grammar stopped to say what may appear there instead.
//
// text is what was scanned: the window of src's text that starts at
// offset base (the whole text, a part of it, or a prefix of either).
func syntaxError(filename string, src *ast.Source, text string, base int, err error) *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: diag.Error, Code: codeSyntax}
	rangeOf := func(start, end int) ast.Range {
		return ast.Range{File: filename, Start: src.Position(start), End: src.Position(end)}
	}
	var se *scanError
	if errors.As(err, &se) {
		d.Summary, d.Detail = se.summary, se.detail
		if se.code != "" {
			d.Code, d.Suggestion = se.code, se.suggestion
		}
		d.Range = rangeOf(se.offset, se.end)
		if se.relatedMsg != "" {
			d.Related = []diag.Related{{Range: rangeOf(se.related, se.related+1), Message: se.relatedMsg}}
		}
		return d
	}
	var st *stopError
	if !errors.As(err, &st) {
		// Not reached: the document grammar reports where it stops as a
		// stopError. Placed at participle's position, if it has one.
		off := base + len(text)
		var pe participle.Error
		if errors.As(err, &pe) {
			off = pe.Position().Offset
		}
		st = &stopError{tok: tokenAt(filename, src, text, base, off)}
	}
	t := st.tok
	explain(d, &t, st.annotated)
	end := t.Pos.Offset + len(t.Value)
	if t.Type == tParenGroup || t.Type == tBracketGroup || t.Type == tBraceGroup {
		end = t.Pos.Offset + 1 // point at the bracket, not the whole group
	}
	d.Range = rangeOf(t.Pos.Offset, end)
	return d
}

// tokenAt returns the coarse token starting at off, or the first one after
// it, in the window text of src that starts at base (the error path only).
func tokenAt(filename string, src *ast.Source, text string, base, off int) lexer.Token {
	sc := newWindowScanner(filename, src, text, base)
	for {
		t, err := sc.Next()
		if err != nil {
			return lexer.Token{Type: lexer.EOF, Pos: sc.pos()}
		}
		if t.Type == lexer.EOF || t.Pos.Offset >= off {
			return t
		}
	}
}

// explain fills in d's summary and detail for the document-level token
// t where the grammar stopped; annotated says annotations precede it.
func explain(d *diag.Diagnostic, t *lexer.Token, annotated bool) {
	if summary, detail, fix, ok := wrongArrow(t); ok {
		d.Summary, d.Detail, d.Code, d.Suggestion = summary, detail, diag.CodeWrongArrow, fix
		return
	}
	switch {
	case t.Type == tPunct && t.Value == ",":
		d.Summary = "top-level patterns are not comma-separated"
		d.Detail = "Write each top-level pattern on its own, without a comma between them, or group them as elements of a subject pattern: [ | (a), (b) ]."
	case t.Type == tPunct && t.Value == "@@":
		d.Summary = "@@ must be the first annotation"
		d.Detail = "A pattern has at most one identified annotation (@@id:Label), and it comes before any @key(value) annotations: @@id @key(value) (a)."
	case t.Type == tBraceGroup:
		d.Summary = "a record can only be the document header"
		d.Detail = "Only the first thing in a file may be a bare record { ... } (the header). Attach other records to a node or subject pattern: (n {k: v}) or [s {k: v}]."
	default:
		if t.Type == lexer.EOF {
			d.Summary = "unexpected end of file"
		} else {
			d.Summary = "unexpected " + describe(t)
		}
		if annotated {
			d.Detail = "Expected the pattern the annotations apply to: a subject pattern [...], a node (...) or a path such as (a)-->(b)."
		} else {
			d.Detail = "Expected a top-level pattern: a subject pattern [...], a node (...) or a path such as (a)-->(b), optionally preceded by annotations such as @key(value)."
		}
	}
}

// wrongArrows are arrows of other notations and the gram arrow each means.
var wrongArrows = map[string]string{"=>": "==>", "->": "-->", "<=": "<==", "<-": "<--", "~>": "~~>", "<~": "<~~"}

// wrongArrow recognises an arrow written as other notations write it
// (`=>`, `->`): the summary, detail and the gram arrow to write instead.
func wrongArrow(t *lexer.Token) (summary, detail, fix string, ok bool) {
	fix, ok = wrongArrows[t.Value]
	if !ok || t.Type != tPunct {
		return "", "", "", false
	}
	return fmt.Sprintf("unexpected %q", t.Value) + suggest.DidYouMeanCode(fix),
		"gram arrows are three characters long: ==>, --> or ~~> to the right (a tool signature uses ==>), <==, <-- or <~~ to the left.",
		fix, true
}

// hiddenCloser explains when a line comment after off swallowed the
// closing bracket, as in `{// comment}`.
func hiddenCloser(text string, off int, closer string) string {
	rest := text[off:]
	nl := strings.IndexByte(rest, '\n')
	line := rest
	if nl >= 0 {
		line = rest[:nl]
	}
	if ci := strings.Index(line, "//"); ci >= 0 && strings.Contains(line[ci:], closer) {
		return fmt.Sprintf("The %q on this line is inside a // comment, which runs to the end of the line; move the comment after the %q or onto its own line.", closer, closer)
	}
	return ""
}

func describe(t *lexer.Token) string {
	switch t.Type {
	case lexer.EOF:
		return "end of file"
	case tSymbol:
		return fmt.Sprintf("symbol %q", t.Value)
	case tSQString, tDQString, tBTString, tFenced:
		return "string " + abbreviate(t.Value)
	case tTagged:
		return "tagged string " + abbreviate(t.Value)
	case tInteger, tDecimal, tHex, tOctal, tMeasurement:
		return fmt.Sprintf("number %s", t.Value)
	case tParenGroup, tBracketGroup, tBraceGroup:
		return fmt.Sprintf("%q", t.Value[:1])
	}
	return fmt.Sprintf("%q", t.Value)
}

func abbreviate(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + "..."
	}
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
