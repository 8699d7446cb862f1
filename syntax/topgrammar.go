package syntax

import (
	"fmt"
	"io"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
)

// The document grammar: participle parses the top level of a gram document
// (the header record, the sequence of top-level patterns, annotations)
// over coarse tokens, in which every balanced (...), [...] and {...} group
// is one token. Groups are parsed by the hand-written parser
// (handparse.go) through participle.Parseable, so participle's reflection
// runs a few times per top-level pattern instead of once per token; this is
// what makes large documents fast (see BenchmarkParse).
//
//	gram_pattern      = [ record ], { top_level_pattern } ;
//	top_level_pattern = annotated | subject_pattern | path ;
//	annotated         = [ identified_annotation ], { property_annotation },
//	                    ( subject_pattern | path ) ;
//	path              = node_pattern, { arrow, node_pattern } ;
//
// Participle's reflection allocates for every struct and optional it
// tries, so the un-annotated top-level pattern, by far the most common,
// takes a hand-written fast path (docTop.Parse); annotated patterns are
// parsed by the docAnnotated grammar.

// docFile is gram_pattern.
type docFile struct {
	Header   *recordGroup `parser:"@@?"`
	Patterns *docPatterns `parser:"@@?"`
}

// docPatterns is the sequence of top-level patterns. It loops over them by
// hand: participle's repetition costs several allocations per iteration,
// which for a document of 20,000 tools is more than the rest of the parse.
// It stops at the first token that cannot start a pattern, where
// participle then reports what it expected.
type docPatterns struct {
	list []*docTop
	err  error // the annotated pattern that failed to parse, if any
}

func (g *docPatterns) Parse(lex *lexer.PeekingLexer) error {
	for {
		t := new(docTop)
		err := t.Parse(lex)
		if err == participle.NextMatch {
			break
		}
		if err != nil {
			// Keep the patterns parsed so far (a partial file) and stop;
			// ParseFile reports err.
			g.err = err
			break
		}
		g.list = append(g.list, t)
	}
	if len(g.list) == 0 && g.err == nil {
		return participle.NextMatch
	}
	return nil
}

// docTop is a top-level pattern.
type docTop struct {
	pattern ast.Pattern
	errs    []*parseError
}

func (g *docTop) Parse(lex *lexer.PeekingLexer) error {
	if t := lex.Peek(); t.Type == tPunct && (t.Value == "@" || t.Value == "@@") {
		ann, err := annotatedGrammar.ParseFromLexer(lex, participle.AllowTrailing(true))
		if err != nil {
			return err
		}
		var l topLowerer
		g.pattern = l.annotated(ann)
		g.errs = l.errs
		return nil
	}
	var pg patternGroup
	if err := pg.Parse(lex); err != nil {
		return err
	}
	g.pattern, g.errs = pg.pattern, pg.errs
	return nil
}

// docAnnotated is a top-level pattern with annotations.
type docAnnotated struct {
	Tokens  []lexer.Token
	Ident   *docIdentAnnot  `parser:"@@?"`
	Props   []*docPropAnnot `parser:"@@*"`
	Pattern *patternGroup   `parser:"@@"`
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
	a := arenaPool.Get().(*arena)
	var p hparser
	p.init(t, a)
	fn(&p)
	if p.err == nil && p.tok.Type != lexer.EOF {
		p.unexpected("the end of the group")
	}
	res.err = p.err
	arenaPool.Put(a)
	return nil
}

// patternGroup is a top-level subject pattern or path, parsed by hand
// from the coarse tokens: a [...] group, or a (...) group followed by
// arrows (whose pieces are fine tokens, with an optional [...] group) and
// further (...) groups.
type patternGroup struct {
	errs    []*parseError
	pattern ast.Pattern
}

func (g *patternGroup) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tBracketGroup && t.Type != tParenGroup {
		return participle.NextMatch
	}
	a := arenaPool.Get().(*arena)
	defer arenaPool.Put(a)
	lex.Next()
	if t.Type == tBracketGroup {
		var p hparser
		p.init(t, a)
		g.pattern = p.subjectPattern()
		g.note(&p)
		return nil
	}
	var nb [8]*ast.NodePattern
	var ab [8]*ast.Arrow
	nodes, arrows := append(nb[:0], g.node(t, a)), ab[:0]
	for {
		t = lex.Peek()
		if t.Type != tPunct || !isArrowOpen(t.Value) {
			break
		}
		if len(arrows) == MaxNesting {
			g.fail(t, "path too long", pathTooLong)
			break
		}
		lex.Next()
		arrow := a.arrows.new()
		arrows = append(arrows, arrow)
		open, start := t.Value, astPos(t.Pos)
		arrow.Span = ast.Span{StartPos: start, EndPos: tokEnd(t)}
		if t = lex.Peek(); t.Type == tBracketGroup {
			lex.Next()
			var p hparser
			p.init(t, a)
			arrow.Subject = p.arrowSubject()
			g.note(&p)
		}
		c := lex.Peek()
		if c.Type != tPunct || !isArrowClose(c.Value) {
			g.fail(c, "unexpected "+describe(c), fmt.Sprintf("Expected the rest of the arrow (%q or %q) here.", open[len(open)-1:], open[len(open)-1:]+">"))
			break
		}
		lex.Next()
		arrow.Span.EndPos = tokEnd(c)
		setArrowKind(arrow, open, c.Value)
		if c.Value[0] != open[len(open)-1] {
			g.fail(c, "arrow mixes line styles",
				"An arrow is drawn with one kind of line: -->, ==> or ~~> (and -[r]->, =[r]=>, ~[r]~>). Use the same character on both sides.")
		}
		t = lex.Peek()
		if t.Type != tParenGroup {
			if t.Type == tSymbol {
				g.fail(t, "expected a node after the arrow, found "+describe(t), nodeAfterArrow)
			} else {
				g.fail(t, "unexpected "+describe(t), `Expected a node "(" after the arrow.`)
			}
			break
		}
		lex.Next()
		nodes = append(nodes, g.node(t, a))
	}
	g.pattern = buildPath(a, nodes, arrows)
	return nil
}

// node parses the (...) group t as a node pattern.
func (g *patternGroup) node(t *lexer.Token, a *arena) *ast.NodePattern {
	var p hparser
	p.init(t, a)
	n := p.nodePattern()
	g.note(&p)
	return n
}

// note records p's error, and reports a group that does not end where
// its pattern does.
func (g *patternGroup) note(p *hparser) {
	if p.err == nil && p.tok.Type != lexer.EOF {
		p.unexpected("the end of the group")
	}
	if p.err != nil {
		g.errs = append(g.errs, p.err)
	}
}

func (g *patternGroup) fail(t *lexer.Token, summary, detail string) {
	g.errs = append(g.errs, &parseError{start: astPos(t.Pos), end: tokEnd(t), summary: summary, detail: detail})
}

func isArrowOpen(v string) bool {
	switch v {
	case "-", "<-", "=", "<=", "~", "<~":
		return true
	}
	return false
}

func isArrowClose(v string) bool {
	switch v {
	case "-", "->", "=", "=>", "~", "~>":
		return true
	}
	return false
}

// recordGroup is a {...} group parsed as a record.
type recordGroup struct {
	groupResult
	record *ast.Record
}

func (g *recordGroup) Parse(lex *lexer.PeekingLexer) error {
	return parseGroup(lex, tBraceGroup, &g.groupResult, func(p *hparser) { g.record = p.record() })
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

// annotatedGrammar parses one annotated top-level pattern.
var annotatedGrammar = participle.MustBuild[docAnnotated](
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
	if g.Patterns == nil {
		return
	}
	f.Patterns = make([]ast.Pattern, 0, len(g.Patterns.list))
	for _, t := range g.Patterns.list {
		if t == nil {
			continue
		}
		l.errs = append(l.errs, t.errs...)
		if t.pattern != nil {
			f.Patterns = append(f.Patterns, t.pattern)
		}
	}
}

func (l *topLowerer) annotated(g *docAnnotated) ast.Pattern {
	if g == nil {
		return nil
	}
	var inner ast.Pattern
	if g.Pattern != nil {
		l.errs = append(l.errs, g.Pattern.errs...)
		inner = g.Pattern.pattern
	}
	ap := &ast.AnnotatedPattern{Pattern: inner, Span: span(g.Tokens)}
	if g.Ident != nil {
		ia := &ast.IdentifiedAnnotation{Span: span(g.Ident.Tokens)}
		if g.Ident.Ident.Type != 0 {
			var p hparser
			p.a = arenaPool.Get().(*arena)
			defer arenaPool.Put(p.a)
			p.tok = g.Ident.Ident
			p.tokEnd = tokEnd(&p.tok)
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
