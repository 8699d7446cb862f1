package syntax

import (
	"fmt"
	"math"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// codeSyntax is the diagnostic code of every syntax error.
const codeSyntax = diag.Code("syntax")

// ParseFile parses one gram document. It always returns a non-nil file:
// on syntax errors the file holds what could be parsed and the diagnostics
// (code "syntax") say what is wrong and how to fix it. Comments are kept in
// File.Comments in source order.
func ParseFile(filename string, src []byte) (*ast.File, diag.Diagnostics) {
	if len(src) > MaxFileSize {
		return tooLarge(filename, len(src))
	}
	text := string(src)
	return parseText(filename, ast.NewSource(text), text, true)
}

// ParseString is ParseFile for source held in a string. The tree's strings
// share text's memory, so a caller that reads a file straight into a
// string (see ReadFile) holds one copy of the source rather than two.
func ParseString(filename, text string) (*ast.File, diag.Diagnostics) {
	if len(text) > MaxFileSize {
		return tooLarge(filename, len(text))
	}
	return parseText(filename, ast.NewSource(text), text, true)
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
func parseText(filename string, src *ast.Source, text string, partial bool) (*ast.File, diag.Diagnostics) {
	f := &ast.File{Name: filename}
	sc := newCoarseScanner(filename, text)
	peek, err := lexer.Upgrade(sc)
	var g *docFile
	if err == nil {
		g, err = topGrammar.ParseFromLexer(peek)
	} else if partial && sc.tokStart > 0 {
		prefix, _ := parseText(filename, src, text[:sc.tokStart], false)
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
	var diags diag.Diagnostics
	for _, e := range l.errs {
		diags = append(diags, &diag.Diagnostic{
			Severity: diag.Error,
			Code:     codeSyntax,
			Summary:  e.summary,
			Detail:   e.detail,
			Range:    ast.Range{File: filename, Start: src.Position(e.start), End: src.Position(e.end)},
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
		// A parser error after an error inside a group is most likely a
		// consequence of it; report only the first.
		if len(diags) == 0 || d.Range.Start.Offset < firstOffset(diags) {
			diags = append(diags, d)
		}
	}
	diags.Sort()
	return f, diags
}

func firstOffset(ds diag.Diagnostics) int32 {
	off := ds[0].Range.Start.Offset
	for _, d := range ds[1:] {
		off = min(off, d.Range.Start.Offset)
	}
	return off
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
