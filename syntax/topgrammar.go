package syntax

import (
	"fmt"
	"io"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
)

// The document grammar: participle parses the top level of a gram document
// (the header record, annotations, top-level subject patterns and paths)
// over coarse tokens, in which every balanced (...), [...] and {...} group
// is one token. Each group is parsed by the hand-written parser
// (handparse.go) through participle.Parseable, so participle's reflection
// runs once per top-level construct instead of once per token; this is what
// makes large documents fast (see docs/performance.md).
//
//	gram_pattern      = [ record ], { top_level_pattern } ;
//	top_level_pattern = [ identified_annotation ], { property_annotation },
//	                    ( subject_pattern | path ) ;
//	path              = node_pattern, { arrow, node_pattern } ;

// docFile is gram_pattern.
type docFile struct {
	Header   *recordGroup `parser:"@@?"`
	Patterns []*docTop    `parser:"@@*"`
}

// docTop is a top-level pattern with its optional annotations.
type docTop struct {
	Tokens  []lexer.Token
	Ident   *docIdentAnnot  `parser:"@@?"`
	Props   []*docPropAnnot `parser:"@@*"`
	Subject *subjectGroup   `parser:"( @@"`
	Path    *docPath        `parser:"| @@ )"`
}

// docIdentAnnot is `@@id:Label`.
type docIdentAnnot struct {
	Tokens []lexer.Token
	Ident  lexer.Token `parser:"'@@' @(Symbol | BTString | Integer)?"`
	Labels []*docLabel `parser:"@@*"`
}

// docLabel is `:Name` or `::Name`.
type docLabel struct {
	Tokens []lexer.Token
	Sep    string      `parser:"@(':' | '::')"`
	Name   lexer.Token `parser:"@(Symbol | BTString)"`
}

// docPropAnnot is `@key(value)`.
type docPropAnnot struct {
	Tokens []lexer.Token
	Key    lexer.Token `parser:"'@' @Symbol"`
	Value  *valueGroup `parser:"@@"`
}

// docPath is a node followed by zero or more arrow-node steps; it is a list
// (not right-recursive) so that a long chain does not recurse.
type docPath struct {
	Left  *nodeGroup `parser:"@@"`
	Steps []*docStep `parser:"@@*"`
}

// docStep is one arrow and the node after it.
type docStep struct {
	Arrow *docArrow  `parser:"@@"`
	Node  *nodeGroup `parser:"@@"`
}

// docArrow is one of the twelve arrows; the scanner yields arrows in pieces
// ("<-", "-", "->", ...) exactly as the reference grammar's tokens.
type docArrow struct {
	Tokens  []lexer.Token
	Open    string      `parser:"@('<-' | '-' | '<=' | '=' | '<~' | '~')"`
	Subject *arrowGroup `parser:"@@?"`
	Close   string      `parser:"@('->' | '-' | '=>' | '=' | '~>' | '~')"`
}

// groupResult is what the hand-written parser produced for one group.
type groupResult struct {
	err *parseError
}

// parseGroup runs fn on the group token at the head of lex if it has type
// typ; otherwise it reports participle.NextMatch.
func parseGroup(lex *lexer.PeekingLexer, typ lexer.TokenType, res *groupResult, fn func(p *hparser)) error {
	t := lex.Peek()
	if t.Type != typ {
		return participle.NextMatch
	}
	lex.Next()
	var p hparser
	p.init(t)
	fn(&p)
	if p.err == nil && p.tok.Type != lexer.EOF {
		p.unexpected("the end of the group")
	}
	res.err = p.err
	return nil
}

// nodeGroup is a (...) group parsed as a node pattern.
type nodeGroup struct {
	groupResult
	node *ast.NodePattern
}

func (g *nodeGroup) Parse(lex *lexer.PeekingLexer) error {
	return parseGroup(lex, tParenGroup, &g.groupResult, func(p *hparser) { g.node = p.nodePattern() })
}

// subjectGroup is a [...] group parsed as a subject pattern.
type subjectGroup struct {
	groupResult
	pattern *ast.SubjectPattern
}

func (g *subjectGroup) Parse(lex *lexer.PeekingLexer) error {
	return parseGroup(lex, tBracketGroup, &g.groupResult, func(p *hparser) { g.pattern = p.subjectPattern() })
}

// recordGroup is a {...} group parsed as a record.
type recordGroup struct {
	groupResult
	record *ast.Record
}

func (g *recordGroup) Parse(lex *lexer.PeekingLexer) error {
	return parseGroup(lex, tBraceGroup, &g.groupResult, func(p *hparser) { g.record = p.record() })
}

// arrowGroup is the [...] group of an arrow, parsed as a subject.
type arrowGroup struct {
	groupResult
	subject *ast.Subject
	span    ast.Span
}

func (g *arrowGroup) Parse(lex *lexer.PeekingLexer) error {
	return parseGroup(lex, tBracketGroup, &g.groupResult, func(p *hparser) {
		start := p.start()
		p.next() // [
		g.subject = &ast.Subject{}
		p.subject(g.subject)
		if !p.is("]") {
			if g.subject.IsEmpty() && p.isAnnotation() {
				p.fail("annotations cannot appear inside a relationship",
					"Annotations such as @key(value) or @@id come before a whole top-level pattern: @desc(\"x\") (a)-[r]->(b). Inside an arrow, put the data in the record: -[r {desc: \"x\"}]->.")
			}
			p.unexpected(p.subjectWant(g.subject, `"]"`))
		} else {
			p.next()
		}
		g.span = p.span(start)
	})
}

// valueGroup is the (...) group of a property annotation: one value.
type valueGroup struct {
	groupResult
	value ast.Value
}

func (g *valueGroup) Parse(lex *lexer.PeekingLexer) error {
	return parseGroup(lex, tParenGroup, &g.groupResult, func(p *hparser) {
		p.next() // (
		g.value = p.value()
		if p.err == nil && !p.is(")") {
			p.unexpected(`")" after the annotation's value`)
		}
		p.next()
	})
}

// lexDef adapts the scanner to participle's lexer.Definition. ParseFile
// drives the scanner itself (to keep its comments and nesting errors) and
// hands participle the token stream through ParseFromLexer.
type lexDef struct{}

func (lexDef) Symbols() map[string]lexer.TokenType { return tokenNames() }

func (lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", filename, err)
	}
	return newCoarseScanner(filename, string(b)), nil
}

// LexString implements lexer.StringDefinition.
func (lexDef) LexString(filename, src string) (lexer.Lexer, error) {
	return newCoarseScanner(filename, src), nil
}

// topGrammar is the document grammar over coarse tokens.
var topGrammar = participle.MustBuild[docFile](
	participle.Lexer(lexDef{}),
	participle.UseLookahead(2),
)

// topLowerer turns the document grammar's structs into the ast and collects
// the errors the hand-written parser recorded in the groups.
type topLowerer struct {
	errs []*parseError
}

func (l *topLowerer) note(r *groupResult) {
	if r.err != nil {
		l.errs = append(l.errs, r.err)
	}
}

func (l *topLowerer) file(g *docFile, f *ast.File) {
	if g == nil {
		return
	}
	if g.Header != nil {
		l.note(&g.Header.groupResult)
		f.Header = g.Header.record
	}
	if len(g.Patterns) > 0 {
		f.Patterns = make([]ast.Pattern, 0, len(g.Patterns))
	}
	for _, t := range g.Patterns {
		if t == nil {
			continue
		}
		if p := l.top(t); p != nil {
			f.Patterns = append(f.Patterns, p)
		}
	}
}

func (l *topLowerer) top(g *docTop) ast.Pattern {
	var inner ast.Pattern
	switch {
	case g.Subject != nil:
		l.note(&g.Subject.groupResult)
		if g.Subject.pattern != nil {
			inner = g.Subject.pattern
		}
	case g.Path != nil:
		inner = l.path(g.Path)
	}
	if g.Ident == nil && len(g.Props) == 0 {
		return inner
	}
	ap := &ast.AnnotatedPattern{Pattern: inner, Span: span(g.Tokens)}
	if g.Ident != nil {
		ia := &ast.IdentifiedAnnotation{Span: span(g.Ident.Tokens)}
		if g.Ident.Ident.Type != 0 {
			var p hparser
			p.tok = g.Ident.Ident
			ia.Identifier = p.identifier()
		}
		if len(g.Ident.Labels) > 0 {
			ls := &ast.Labels{List: make([]*ast.Label, 0, len(g.Ident.Labels))}
			for _, gl := range g.Ident.Labels {
				lb := &ast.Label{DoubleColon: gl.Sep == "::", Name: gl.Name.Value, Span: span(gl.Tokens)}
				if gl.Name.Type == tBTString {
					lb.Quoted = true
					lb.Name = unquote(gl.Name.Value)
				}
				ls.List = append(ls.List, lb)
			}
			ls.Span = ast.Span{StartPos: ls.List[0].Pos(), EndPos: ls.List[len(ls.List)-1].End()}
			ia.Labels = ls
		}
		if ia.Identifier == nil && ia.Labels == nil && len(g.Ident.Tokens) > 0 {
			t := &g.Ident.Tokens[0]
			l.errs = append(l.errs, &parseError{start: astPos(t.Pos), end: tokEnd(t),
				summary: "@@ needs an identifier or labels",
				detail:  "An identified annotation names the annotated pattern: write @@id, @@:Label or @@id:Label before the pattern."})
		}
		ap.Annotations = append(ap.Annotations, ia)
	}
	for _, p := range g.Props {
		if p == nil {
			continue
		}
		pa := &ast.PropertyAnnotation{
			Key:  &ast.Symbol{Name: p.Key.Value, Span: tokSpan(&p.Key)},
			Span: span(p.Tokens),
		}
		if p.Value != nil {
			l.note(&p.Value.groupResult)
			pa.Value = p.Value.value
		}
		ap.Annotations = append(ap.Annotations, pa)
	}
	return ap
}

func (l *topLowerer) path(g *docPath) ast.Pattern {
	if g.Left == nil || g.Left.node == nil {
		return nil
	}
	l.note(&g.Left.groupResult)
	nodes := make([]*ast.NodePattern, 1, 1+len(g.Steps))
	nodes[0] = g.Left.node
	arrows := make([]*ast.Arrow, 0, len(g.Steps))
	for _, s := range g.Steps {
		if s == nil || s.Arrow == nil {
			break
		}
		arrows = append(arrows, l.arrow(s.Arrow))
		if s.Node == nil || s.Node.node == nil {
			break
		}
		l.note(&s.Node.groupResult)
		nodes = append(nodes, s.Node.node)
	}
	return buildPath(nodes, arrows)
}

func (l *topLowerer) arrow(g *docArrow) *ast.Arrow {
	a := &ast.Arrow{Span: span(g.Tokens)}
	if g.Subject != nil {
		l.note(&g.Subject.groupResult)
		a.Subject = g.Subject.subject
	}
	if g.Open == "" || g.Close == "" {
		return a
	}
	setArrowKind(a, g.Open, g.Close)
	if g.Close[0] != g.Open[len(g.Open)-1] && len(g.Tokens) > 0 {
		t := &g.Tokens[len(g.Tokens)-1]
		l.errs = append(l.errs, &parseError{start: astPos(t.Pos), end: tokEnd(t),
			summary: "arrow mixes line styles",
			detail:  "An arrow is drawn with one kind of line: -->, ==> or ~~> (and -[r]->, =[r]=>, ~[r]~>). Use the same character on both sides."})
	}
	return a
}
