package syntax

import (
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
	text := string(src)
	f := &ast.File{Name: filename}
	sc := newScanner(filename, text)
	peek, err := lexer.Upgrade(sc)
	var g *gFile
	if err == nil {
		g, err = grammar.ParseFromLexer(peek)
	}
	l := &lowerer{filename: filename}
	l.file(g, f)
	f.Comments = make([]*ast.Comment, 0, len(sc.comments))
	for _, c := range sc.comments {
		f.Comments = append(f.Comments, &ast.Comment{
			Text: text[c.start:c.end],
			Span: ast.Span{
				StartPos: ast.Pos{Offset: c.start, Line: c.line, Column: c.col},
				EndPos:   ast.Pos{Offset: c.end, Line: c.line, Column: c.col + runeCount(text[c.start:c.end])},
			},
		})
	}
	f.Span = ast.Span{StartPos: ast.Pos{Offset: 0, Line: 1, Column: 1}, EndPos: endOfText(text)}
	var diags diag.Diagnostics
	if err != nil {
		diags = append(diags, syntaxError(filename, text, sc, err))
	} else {
		diags = append(diags, l.diags...)
	}
	diags.Sort()
	return f, diags
}

// endOfText is the position just after the last character of text.
func endOfText(text string) ast.Pos {
	t := lexer.Token{Value: text, Pos: lexer.Position{Line: 1, Column: 1}}
	return tokEnd(&t)
}
