package syntax

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// syntaxError turns a scanner or participle error into one actionable
// diagnostic. Participle reports the deepest unexpected token; this looks
// at the tokens around it to say what the user most likely meant.
func syntaxError(filename, text string, err error) *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: diag.Error, Code: codeSyntax}
	pt := newPosTable(text)
	var se *scanError
	if errors.As(err, &se) {
		d.Summary, d.Detail = se.summary, se.detail
		d.Range = pt.rangeOf(filename, se.offset, se.end)
		if se.relatedMsg != "" {
			d.Related = []diag.Related{{Range: pt.rangeOf(filename, se.related, se.related+1), Message: se.relatedMsg}}
		}
		return d
	}
	var pe participle.Error
	if !errors.As(err, &pe) {
		d.Summary = err.Error()
		d.Range = pt.rangeOf(filename, len(text), len(text))
		return d
	}
	off := pe.Position().Offset
	toks := relex(filename, text)
	i := tokenAt(toks, off)
	explain(d, text, toks, i, pe)
	if d.Range.File == "" {
		t := &toks[i]
		d.Range = pt.rangeOf(filename, t.Pos.Offset, t.Pos.Offset+len(t.Value))
	}
	return d
}

// relex scans text into a token slice (the error path only; tokens up to a
// scanner error, then EOF).
func relex(filename, text string) []lexer.Token {
	sc := newCoarseScanner(filename, text)
	var toks []lexer.Token
	for {
		t, err := sc.Next()
		if err != nil || t.Type == lexer.EOF {
			if err != nil {
				t = lexer.Token{Type: lexer.EOF, Pos: sc.pos()}
			}
			toks = append(toks, t)
			return toks
		}
		toks = append(toks, t)
	}
}

// tokenAt returns the index of the token starting at off (or the first one
// after it).
func tokenAt(toks []lexer.Token, off int) int {
	for i := range toks {
		if toks[i].Pos.Offset >= off {
			return i
		}
	}
	return len(toks) - 1
}

// opener is an unclosed bracket before some token.
type opener struct {
	index int // token index of the bracket
	tok   *lexer.Token
}

// openBrackets returns the brackets still open before token i, innermost
// last.
func openBrackets(toks []lexer.Token, i int) []opener {
	var stack []opener
	for j := 0; j < i && j < len(toks); j++ {
		if toks[j].Type != tPunct {
			continue
		}
		switch toks[j].Value {
		case "(", "[", "{":
			stack = append(stack, opener{j, &toks[j]})
		case ")", "]", "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return stack
}

func closerOf(open string) string {
	switch open {
	case "(":
		return ")"
	case "[":
		return "]"
	}
	return "}"
}

// isValueStart reports whether the bracket at index j starts a value (it
// follows a record key's ":"/"::", an annotation's "(", or sits inside an
// array).
func isValueStart(toks []lexer.Token, j int) bool {
	if j == 0 {
		return false
	}
	p := toks[j-1]
	if p.Type != tPunct {
		return false
	}
	switch p.Value {
	case ":", "::":
		// A label separator is followed by a name, never by a bracket, so
		// a bracket after ":" is a value.
		return true
	case "(":
		return j >= 3 && toks[j-2].Type == tSymbol && toks[j-3].Value == "@"
	}
	return false
}

// explain fills in d's summary, detail and (when not the unexpected token)
// range for the participle error pe at token i.
func explain(d *diag.Diagnostic, text string, toks []lexer.Token, i int, pe participle.Error) {
	t := &toks[i]
	stack := openBrackets(toks, i)
	expect := ""
	var ute *participle.UnexpectedTokenError
	if errors.As(pe, &ute) {
		expect = ute.Expect
	}
	what := describe(t)
	prev := func(k int) *lexer.Token {
		if i-k >= 0 {
			return &toks[i-k]
		}
		return nil
	}
	inArray := len(stack) > 0 && stack[len(stack)-1].tok.Value == "[" && isValueStart(toks, stack[len(stack)-1].index)
	switch {
	case t.Value == "{" && inArray && t.Type == tPunct:
		d.Summary = "arrays hold scalars only"
		d.Detail = "An array may contain numbers, strings, symbols, booleans and ranges, but not maps. To describe structured items, declare a named type ([Item:Type | (name::String), ...]) and refer to it, e.g. {elementType: Item}."
	case t.Value == "[" && inArray && t.Type == tPunct:
		d.Summary = "arrays hold scalars only"
		d.Detail = "An array may contain numbers, strings, symbols, booleans and ranges, but not other arrays. Flatten the values into one array."
	case t.Value == "]" && t.Type == tPunct && prev(1) != nil && prev(1).Value == "[" && isValueStart(toks, i-1):
		d.Summary = "[] is an empty pattern, not an array"
		d.Detail = "In gram, [] is an empty subject pattern, and arrays must not be empty. Leave the property out, or give at least one element: [\"a\"]."
	case t.Value == "{" && t.Type == tPunct && len(stack) > 0 && stack[len(stack)-1].tok.Value == "{" && isValueStart(toks, i):
		d.Summary = "maps hold scalars only"
		d.Detail = "A map inside a record may only hold scalar values (numbers, strings, symbols, booleans, ranges), not another map. Promote the inner structure to a node or a named type."
	case t.Value == "," && t.Type == tPunct && len(stack) == 0:
		d.Summary = "top-level patterns are not comma-separated"
		d.Detail = "Write each top-level pattern on its own, without a comma between them, or group them as elements of a subject pattern: [ | (a), (b) ]."
	case (t.Value == "@" || t.Value == "@@") && t.Type == tPunct && len(stack) > 0 && (stack[len(stack)-1].tok.Value == "(" || stack[len(stack)-1].tok.Value == "["):
		if stack[len(stack)-1].tok.Value == "(" {
			d.Summary = "annotations cannot appear inside a node"
		} else if isArrowBracket(toks, stack[len(stack)-1].index) {
			d.Summary = "annotations cannot appear inside a relationship"
		} else {
			d.Summary = "annotations cannot appear here"
		}
		d.Detail = "Annotations such as @key(value) or @@id come before a whole top-level pattern: @desc(\"x\") (a)-->(b). Inside a node or arrow, put the data in the record: (a {desc: \"x\"})."
	case t.Type == lexer.EOF && len(stack) > 0:
		o := stack[len(stack)-1]
		d.Summary = fmt.Sprintf("missing %q to close this %q", closerOf(o.tok.Value), o.tok.Value)
		d.Detail = fmt.Sprintf("The file ends before the %q opened here is closed. Add %q after its last element.", o.tok.Value, closerOf(o.tok.Value))
		if c := hiddenCloser(text, o.tok.Pos.Offset, closerOf(o.tok.Value)); c != "" {
			d.Detail += " " + c
		}
		d.Range = tokenRange(o.tok)
	case len(stack) > 0 && t.Pos.Column == 1 && (t.Value == "[" || t.Value == "(" || t.Value == "@" || t.Value == "@@") && t.Type == tPunct:
		// A new top-level pattern starts while an older one is still open.
		o := stack[len(stack)-1]
		d.Summary = fmt.Sprintf("missing %q to close this %q", closerOf(o.tok.Value), o.tok.Value)
		d.Detail = fmt.Sprintf("A new pattern starts at line %d before the %q opened here is closed. Add %q after its last element.", t.Pos.Line, o.tok.Value, closerOf(o.tok.Value))
		d.Range = tokenRange(o.tok)
	case t.Type == tBraceGroup && len(stack) == 0:
		d.Summary = "a record can only be the document header"
		d.Detail = "Only the first thing in a file may be a bare record { ... } (the header). Attach other records to a node or subject pattern: (n {k: v}) or [s {k: v}]."
	default:
		if t.Type == lexer.EOF {
			d.Summary = "unexpected end of file"
		} else {
			d.Summary = "unexpected " + what
		}
		switch {
		case strings.Contains(expect, "patternGroup") || strings.Contains(pe.Message(), "patternGroup"):
			d.Detail = "Expected the pattern the annotations apply to: a subject pattern [...], a node (...) or a path such as (a)-->(b)."
		case len(stack) == 0:
			d.Detail = "Expected a top-level pattern: a subject pattern [...], a node (...) or a path such as (a)-->(b), optionally preceded by annotations such as @key(value)."
		case expect != "":
			d.Detail = "Expected " + expect + " here."
		default:
			d.Detail = "This token cannot appear here."
		}
	}
}

// isArrowBracket reports whether the "[" at index j opens an arrow's
// subject (-[...]->).
func isArrowBracket(toks []lexer.Token, j int) bool {
	if j == 0 {
		return false
	}
	switch toks[j-1].Value {
	case "-", "<-", "=", "<=", "~", "<~":
		return toks[j-1].Type == tPunct
	}
	return false
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
	case tSQString, tDQString, tBTString, tFenced, tTagged:
		return "string " + abbreviate(t.Value)
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

func tokenRange(t *lexer.Token) ast.Range {
	return ast.Range{File: t.Pos.Filename, Start: astPos(t.Pos), End: tokEnd(t)}
}

// posTable maps byte offsets to positions (the error path only).
type posTable struct {
	text  string
	lines []int // offsets of line starts
}

func newPosTable(text string) *posTable {
	pt := &posTable{text: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			pt.lines = append(pt.lines, i+1)
		}
	}
	return pt
}

func (pt *posTable) pos(off int) ast.Pos {
	if off > len(pt.text) {
		off = len(pt.text)
	}
	lo, hi := 0, len(pt.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if pt.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return ast.Pos{Offset: off, Line: lo + 1, Column: 1 + runeCount(pt.text[pt.lines[lo]:off])}
}

func (pt *posTable) rangeOf(file string, start, end int) ast.Range {
	return ast.Range{File: file, Start: pt.pos(start), End: pt.pos(end)}
}
