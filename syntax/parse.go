package syntax

import (
	"fmt"
	"math"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// codeSyntax is the diagnostic code of a syntax error the parser has no
// more specific code for (diag's registry lists the others).
const codeSyntax = diag.CodeSyntax

// ParseFile parses one gram document. It always returns a non-nil file:
// on syntax errors the file holds what could be parsed and the diagnostics
// (code "syntax") say what is wrong and how to fix it. Comments are kept in
// File.Comments in source order.
func ParseFile(filename string, src []byte) (*ast.File, diag.Diagnostics) {
	if len(src) > MaxFileSize {
		return tooLarge(filename, len(src))
	}
	text := string(src)
	f, ds := parseRecovering(filename, ast.NewSource(text), text)
	if len(ds) > 0 {
		refineOldForms(src, ds)
	}
	return f, ds
}

// ParseString is ParseFile for source held in a string. The tree's strings
// share text's memory, so a caller that reads a file straight into a
// string (see ReadFile) holds one copy of the source rather than two.
func ParseString(filename, text string) (*ast.File, diag.Diagnostics) {
	if len(text) > MaxFileSize {
		return tooLarge(filename, len(text))
	}
	f, ds := parseRecovering(filename, ast.NewSource(text), text)
	if len(ds) > 0 {
		refineOldForms([]byte(text), ds)
	}
	return f, ds
}

// MaxSyntaxErrors bounds the syntax errors reported for one file: after
// it, the parser stops recovering (each recovery parses the rest again).
const MaxSyntaxErrors = 100

// parseRecovering parses text and, after a syntax error, carries on at the
// next top-level pattern, as go/parser advances past bad code: every
// syntax error of a file is reported (up to MaxSyntaxErrors), and the file
// holds every pattern that parses, those after the errors included.
//
// Recovery is by blanking: the broken pattern — from the last line at or
// before the error that starts a top-level pattern, to the next such line
// after it (a line whose first character is '[', '(', '@' or '{') — is
// replaced by spaces, newlines kept, and the text parsed again. Offsets,
// lines and columns stay those of the file (src is the file's), so the
// tree and the diagnostics point into the file as written.
func parseRecovering(filename string, src *ast.Source, text string) (*ast.File, diag.Diagnostics) {
	f, diags, stop := parseText(filename, src, text, true)
	if stop < 0 {
		return f, diags
	}
	work := []byte(text)
	seen := map[string]bool{}
	key := func(d *diag.Diagnostic) string { return fmt.Sprint(d.Range.Start.Offset, d.Summary) }
	for _, d := range diags {
		seen[key(d)] = true
	}
	for n := 1; stop >= 0; n++ {
		if n >= MaxSyntaxErrors {
			diags = append(diags, &diag.Diagnostic{
				Severity: diag.Error,
				Code:     codeSyntax,
				Summary:  fmt.Sprintf("too many syntax errors (%d); the rest of the file is not parsed", MaxSyntaxErrors),
				Detail:   "Fix the errors above first.",
				Range:    ast.Range{File: filename, Start: src.Position(stop), End: src.Position(stop)},
			})
			break
		}
		// The broken region, most likely first: the pattern before an
		// error at the first token of a pattern line (a dangling arrow,
		// an unclosed path: this line may be fine); junk at the start of
		// a line (a "#" comment, a stray word) up to the next pattern
		// line; else the pattern holding the error up to the next one.
		// The first region that still has text is blanked, so each round
		// blanks something and the loop ends.
		type region struct{ from, to int }
		var regions []region
		ls := lineStart(work, stop)
		if stop > 0 && patternStart(work, stop) == stop {
			regions = append(regions, region{patternStart(work, stop-1), stop})
		}
		if firstOnLine(work, ls, stop) && !startsPattern(work, stop) {
			regions = append(regions, region{ls, nextPatternStart(work, stop)})
		}
		regions = append(regions, region{patternStart(work, stop), nextPatternStart(work, stop)})
		blanked := false
		for _, r := range regions {
			if blank(work, r.from, r.to) {
				blanked = true
				break
			}
		}
		if !blanked {
			break
		}
		var more diag.Diagnostics
		f, more, stop = parseText(filename, src, string(work), true)
		for _, d := range more {
			if !seen[key(d)] {
				seen[key(d)] = true
				diags = append(diags, d)
			}
		}
	}
	diags.Sort()
	return f, diags
}

// startsPattern reports whether the line at text[i:] starts a top-level
// pattern: its first character opens a node, a subject pattern, an
// annotation or the header.
func startsPattern(text []byte, i int) bool {
	return i < len(text) && (text[i] == '[' || text[i] == '(' || text[i] == '@' || text[i] == '{')
}

// blank replaces text[from:to] by spaces, keeping line breaks, and
// reports whether anything changed.
func blank(text []byte, from, to int) bool {
	changed := false
	for i := from; i < to && i < len(text); i++ {
		if text[i] != '\n' && text[i] != ' ' {
			text[i] = ' '
			changed = true
		}
	}
	return changed
}

// lineStart is the offset of the start of off's line.
func lineStart(text []byte, off int) int {
	off = min(off, len(text))
	for off > 0 && text[off-1] != '\n' {
		off--
	}
	return off
}

// firstOnLine reports whether only white space stands between the line
// start ls and off.
func firstOnLine(text []byte, ls, off int) bool {
	for i := ls; i < off && i < len(text); i++ {
		if text[i] != ' ' && text[i] != '\t' && text[i] != '\r' {
			return false
		}
	}
	return true
}

// patternStart is the start of the last line at or before off that starts
// a top-level pattern (0 when none does).
func patternStart(text []byte, off int) int {
	off = min(off, len(text))
	for i := off; i > 0; i-- {
		if text[i-1] == '\n' && startsPattern(text, i) && i <= off {
			return i
		}
	}
	return 0
}

// nextPatternStart is the start of the first line after off's line that
// starts a top-level pattern (len(text) when none does).
func nextPatternStart(text []byte, off int) int {
	for i := off; i < len(text); i++ {
		if text[i] == '\n' && startsPattern(text, i+1) {
			return i + 1
		}
	}
	return len(text)
}

// tooLarge is the result for a source over MaxFileSize bytes.
func tooLarge(filename string, size int) (*ast.File, diag.Diagnostics) {
	return &ast.File{Name: filename}, diag.Diagnostics{{
		Severity: diag.Error,
		Code:     codeSyntax,
		Summary:  "file too large",
		Detail:   fmt.Sprintf("A gram file may hold at most %d bytes (positions are 32-bit); this one has %d. Split it into several files of one package.", MaxFileSize, size),
		Range:    ast.Range{File: filename, Start: ast.Pos{Line: 1, Column: 1}, End: ast.Pos{Line: 1, Column: 1}},
	}}
}

// MaxFileSize is the largest source ParseFile accepts: ast positions are
// 32-bit.
const MaxFileSize = math.MaxInt32

// parseText parses text, which is src's text or (for a partial parse) a
// prefix of it; with partial, a lexical error (which stops the scanner)
// still yields the patterns before the construct it is in.
//
// stop is the offset of the error that stopped the parse, or -1 when the
// parse reached the end (errors inside groups do not stop it).
func parseText(filename string, src *ast.Source, text string, partial bool) (f *ast.File, diags diag.Diagnostics, stop int) {
	stop = -1
	f = &ast.File{Name: filename}
	sc := newCoarseScanner(filename, text)
	peek, err := lexer.Upgrade(sc)
	var g *docFile
	if err == nil {
		g, err = topGrammar.ParseFromLexer(peek)
	} else if partial && sc.tokStart > 0 {
		prefix, _, _ := parseText(filename, src, text[:sc.tokStart], false)
		f.Header, f.Patterns = prefix.Header, prefix.Patterns
	}
	if g != nil && g.Patterns != nil && g.Patterns.err != nil {
		// An annotated pattern failed; whatever participle reports after
		// it follows from that.
		err = g.Patterns.err
	}
	l := topLowerer{src: src, peek: peek, runToks: sc.runToks, runPatterns: sc.runPatterns}
	l.file(g, f)
	f.Comments = comments(src, sc.comments)
	f.Span = src.Span(0, len(src.Text()))
	for _, e := range l.errs {
		code := e.code
		if code == "" {
			code = codeSyntax
		}
		diags = append(diags, &diag.Diagnostic{
			Severity:   diag.Error,
			Code:       code,
			Summary:    e.summary,
			Detail:     e.detail,
			Suggestion: e.suggestion,
			Range:      ast.Range{File: filename, Start: src.Position(e.start), End: src.Position(e.end)},
		})
	}
	if sc.truncated >= 0 && (err == nil || syntaxError(filename, src, text, err).Range.Start.Offset >= int32(sc.truncated)) {
		// The parser reached where the scanner stopped: say why.
		err = nil
		diags = append(diags, &diag.Diagnostic{
			Severity: diag.Error,
			Code:     codeSyntax,
			Summary:  fmt.Sprintf("more than %d tokens in a row outside any (...), [...] or {...} group", MaxTokensWithoutGroup),
			Detail:   "gramc stops reading the file here: no gram construct needs that many tokens without a group, and holding them all would take unbounded memory. Split the pattern, or check the file is gram.",
			Range:    ast.Range{File: filename, Start: src.Position(sc.truncated), End: src.Position(sc.truncated)},
		})
	}
	if err != nil {
		d := syntaxError(filename, src, text, err)
		stop = int(d.Range.Start.Offset)
		// A parser error after an error inside a group of the same
		// top-level pattern is most likely a consequence of it; report
		// only the first.
		if !hasErrorFrom(diags, patternStart([]byte(text), stop)) {
			diags = append(diags, d)
		}
	}
	diags.Sort()
	return f, diags, stop
}

// hasErrorFrom reports whether ds has an error at or after offset from.
func hasErrorFrom(ds diag.Diagnostics, from int) bool {
	for _, d := range ds {
		if int(d.Range.Start.Offset) >= from {
			return true
		}
	}
	return false
}

// comments converts the scanner's comments to ast comments.
func comments(src *ast.Source, cs []comment) []*ast.Comment {
	text := src.Text()
	out := make([]*ast.Comment, len(cs))
	nodes := make([]ast.Comment, len(cs))
	for i, c := range cs {
		nodes[i] = ast.Comment{Text: text[c.start:c.end], Span: src.Span(c.start, c.end)}
		out[i] = &nodes[i]
	}
	return out
}
