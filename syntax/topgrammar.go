package syntax

import (
	"errors"
	"fmt"
	"io"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
)

// The document grammar: participle parses the top level of a gram document
// (the header record, the sequence of top-level patterns, annotations)
// over coarse tokens, in which every balanced (...), [...] and {...} group
// is one token. Groups are taken whole through participle.Parseable, so
// participle's reflection runs a few times per top-level pattern instead
// of once per token; this is what makes large documents fast (see
// BenchmarkParse). The lowering (topLowerer) then parses each group with
// the hand-written parser (handparse.go).
//
//	gram_pattern      = [ record ], { top_level_pattern } ;
//	top_level_pattern = annotated | subject_pattern | path ;
//	annotated         = [ identified_annotation ], { property_annotation },
//	                    ( subject_pattern | path ) ;
//	path              = node_pattern, { arrow, node_pattern } ;
//
// Participle's reflection allocates for every struct and optional it
// tries, so the un-annotated top-level pattern, by far the most common,
// takes a hand-written fast path (docPatterns.Parse, delimitPattern);
// annotated patterns are parsed by the docAnnotated grammar.

// docFile is gram_pattern.
type docFile struct {
	Header   *recordGroup `parser:"@@?"`
	Patterns *docPatterns `parser:"@@?"`
}

// docBody is gram_pattern without its header: a window of the file after
// its start (parseRecovering), where a record is an error.
type docBody struct {
	Patterns *docPatterns `parser:"@@?"`
}

// docPatterns is the sequence of top-level patterns. It loops over them by
// hand: participle's repetition costs several allocations per iteration,
// which for a document of 20,000 tools is more than the rest of the parse.
// It stops at the first token that cannot start a pattern, where
// participle then reports what it expected.
type docPatterns struct {
	list      []docTop
	annotated []*docAnnotated
	paths     []pathParts   // the parts of the un-annotated paths
	errs      []*parseError // how the tokens of the paths fit together
	// stop is where the sequence stopped before the end of its tokens:
	// a token no top-level pattern starts with, or an annotated pattern
	// that failed to parse.
	stop *stopError
}

// stopError is a syntax error of the document grammar: the token t, where
// the sequence of top-level patterns stops. annotated says it stands where
// the pattern of annotations should (which the message says). It is the
// grammar's own value: participle's errors are read for their position
// only (stopAt).
type stopError struct {
	tok       lexer.Token
	annotated bool
}

func (e *stopError) Error() string { return "unexpected " + describe(&e.tok) }

// stopAt is the stopError of err, an annotated pattern's failure to parse
// from the checkpoint cp: the grammar's own, or the token at the position
// of participle's.
func stopAt(lex *lexer.PeekingLexer, cp lexer.Checkpoint, err error) *stopError {
	var st *stopError
	if errors.As(err, &st) {
		return st
	}
	off := -1
	var pe participle.Error
	if errors.As(err, &pe) {
		off = pe.Position().Offset
	}
	lex.LoadCheckpoint(cp)
	for t := lex.Peek(); !t.EOF() && t.Pos.Offset < off; t = lex.Peek() {
		lex.Next()
	}
	return &stopError{tok: *lex.Peek()}
}

// docTop is one top-level pattern: the annotated pattern annotated[ann],
// or (ann < 0) the tokens [first, end) of the token stream: one subject
// pattern, or a path whose parts are paths[path] (ann is annOpen for a path
// cut short after an arrow, else -1). It is four integers because a
// document may have tens of thousands of them.
type docTop struct {
	first, end, ann, path int32
}

// annOpen is docTop.ann for a path cut short.
const annOpen = -2

func (g *docPatterns) Parse(lex *lexer.PeekingLexer) error {
	for {
		if t := lex.Peek(); t.Type == tPunct && (t.Value == "@" || t.Value == "@@") {
			cp := lex.MakeCheckpoint()
			ann, err := annotatedGrammar.ParseFromLexer(lex, participle.AllowTrailing(true))
			if err != nil {
				// Keep the patterns parsed so far (a partial file) and
				// stop; parseWindow reports where.
				g.stop = stopAt(lex, cp, err)
				break
			}
			g.list = append(g.list, docTop{ann: int32(len(g.annotated)), path: -1})
			g.annotated = append(g.annotated, ann)
			continue
		}
		first, end, ok, open, parts := delimitPattern(lex, &g.errs)
		if !ok {
			break
		}
		ann, path := int32(-1), int32(-1)
		if open {
			ann = annOpen
		}
		if parts.nodes != nil {
			path = int32(len(g.paths))
			g.paths = append(g.paths, parts)
		}
		g.list = append(g.list, docTop{first: int32(first), end: int32(end), ann: ann, path: path})
	}
	if t := lex.Peek(); g.stop == nil && !t.EOF() {
		g.stop = &stopError{tok: *t}
	}
	return nil
}

// docAnnotated is a top-level pattern with annotations.
type docAnnotated struct {
	Tokens  []lexer.Token
	Ident   *docIdentAnnot `parser:"@@?"`
	Props   docPropAnnots  `parser:"@@"`
	Pattern *patternGroup  `parser:"@@"`
}

// docPropAnnots is the list of `@key(value)` annotations, looped by hand:
// participle's repetition stops at participle.MaxIterations (1,000,000)
// with a misleading error, and a document may hold more annotations than
// that. The list is bounded by the file only.
type docPropAnnots struct{ list []*docPropAnnot }

func (a *docPropAnnots) Parse(lex *lexer.PeekingLexer) error {
	for {
		at := lex.Peek()
		if at.Type != tPunct || at.Value != "@" {
			return nil
		}
		cp := lex.MakeCheckpoint()
		first := *lex.Next()
		key := lex.Peek()
		if key.Type != tSymbol {
			lex.LoadCheckpoint(cp)
			return nil
		}
		p := &docPropAnnot{Key: *lex.Next()}
		p.Value = &valueGroup{}
		if err := p.Value.Parse(lex); err != nil {
			return err
		}
		p.Tokens = []lexer.Token{first, *p.Value.tok}
		a.list = append(a.list, p)
	}
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

// docPropAnnot is `@key(value)`, delimited by docPropAnnots.
type docPropAnnot struct {
	Tokens []lexer.Token // the first and last tokens
	Key    lexer.Token
	Value  *valueGroup
}

// The grammar's Parse methods only delimit: they consume the tokens of a
// group or a path and check how the tokens fit together, but build no
// tree. The lowering (topLowerer) builds the tree afterwards, when it knows
// the file's Source that every node points at (a participle.Parseable is
// given nothing but the token stream).

// groupToken is a group token (a balanced (...), [...] or {...}) that the
// lowering parses with the hand-written parser.
type groupToken struct {
	tok *lexer.Token
}

// parseGroup consumes the group token at the head of lex if it has type
// typ; otherwise it reports participle.NextMatch.
func parseGroup(lex *lexer.PeekingLexer, typ lexer.TokenType, g *groupToken) error {
	t := lex.Peek()
	if t.Type != typ {
		return participle.NextMatch
	}
	g.tok = lex.Next()
	return nil
}

// patternGroup is a top-level subject pattern or path, delimited by hand
// over the coarse tokens: a [...] group, or a (...) group followed by
// arrows (whose pieces are fine tokens, with an optional [...] group) and
// further (...) groups. Errors in how the tokens fit together are recorded
// here; the lowering (topLowerer.pattern) parses the groups.
type patternGroup struct {
	toks  []lexer.Token // the pattern's tokens (a window of the token stream)
	parts pathParts     // a path's parts
	errs  []*parseError
	open  bool // a path cut short after an arrow
}

func (g *patternGroup) Parse(lex *lexer.PeekingLexer) error {
	first, end, ok, open, parts := delimitPattern(lex, &g.errs)
	g.parts = parts
	g.open = open
	if !ok {
		return &stopError{tok: *lex.Peek(), annotated: true}
	}
	g.toks = lex.Range(first, end)
	return nil
}

// delimitPattern consumes the tokens of a subject pattern or path at the
// head of lex and returns where they are in the token stream; a path's
// parts go to parts, errors in how they fit together to errs. It reports
// false, consuming nothing, when no pattern starts there; open is true for
// a path cut short after an arrow (parseRecovering parses it again when
// what follows is blanked).
func delimitPattern(lex *lexer.PeekingLexer, errs *[]*parseError) (first, end lexer.RawCursor, ok, open bool, parts pathParts) {
	t := lex.Peek()
	if t.Type != tBracketGroup && t.Type != tParenGroup {
		return 0, 0, false, false, parts
	}
	first = lex.RawCursor()
	if t.Type == tBracketGroup {
		lex.Next()
		return first, lex.RawCursor(), true, false, parts
	}
	r := &tokenReader{lex: lex, first: first, errs: errs}
	readPath(r)
	return first, lex.RawCursor(), true, r.open, r.parts
}

// recordGroup is a {...} group parsed as a record.
type recordGroup struct{ groupToken }

func (g *recordGroup) Parse(lex *lexer.PeekingLexer) error {
	return parseGroup(lex, tBraceGroup, &g.groupToken)
}

// valueGroup is the (...) group of a property annotation: one value.
type valueGroup struct{ groupToken }

func (g *valueGroup) Parse(lex *lexer.PeekingLexer) error {
	return parseGroup(lex, tParenGroup, &g.groupToken)
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

// bodyGrammar is topGrammar without the header.
var bodyGrammar = participle.MustBuild[docBody](
	participle.Lexer(lexDef{}),
	participle.UseLookahead(2),
)

// annotatedGrammar parses one annotated top-level pattern.
var annotatedGrammar = participle.MustBuild[docAnnotated](
	participle.Lexer(lexDef{}),
	participle.UseLookahead(2),
)

// topLowerer turns the document grammar's structs into the ast: it parses
// every group with the hand-written parser and collects the errors.
type topLowerer struct {
	src  *ast.Source
	peek *lexer.PeekingLexer // the token stream the grammar parsed
	a    *arena
	errs []*parseError
	p    hparser // reused for every group: groups are parsed one at a time

	// ends holds, for each pattern lowered, where its tokens end (for
	// parseRecovering).
	ends []patEnd
}

// patEnd is where the tokens of a top-level pattern end: where the parse of
// the next one started, even when an error inside a group cut the
// pattern's tree short; open is true for a path cut short after an arrow,
// which a node after the end could continue.
type patEnd struct {
	end  int32
	open bool
}

// patEndOf is the patEnd of the pattern of the tokens toks.
func patEndOf(toks []lexer.Token, open bool) patEnd {
	t := &toks[len(toks)-1]
	return patEnd{end: int32(t.Pos.Offset + len(t.Value)), open: open}
}

// open returns the hand-written parser positioned on the group token t.
// The caller parses the whole group and then calls close.
func (l *topLowerer) open(t *lexer.Token) *hparser {
	l.p.init(l.src, t, l.a)
	return &l.p
}

// close records the error the group's parse stopped at, if any.
func (l *topLowerer) close() {
	p := &l.p
	if p.err == nil && p.tok.Type != lexer.EOF {
		p.unexpected("the end of the group")
	}
	if p.err != nil {
		l.errs = append(l.errs, p.err)
	}
}

func (l *topLowerer) file(g *docFile, f *ast.File) {
	if g == nil {
		return
	}
	l.a = arenaPool.Get().(*arena)
	defer arenaPool.Put(l.a)
	if g.Header != nil {
		f.Header = l.open(g.Header.tok).record()
		l.close()
	}
	if g.Patterns == nil {
		return
	}
	l.errs = append(l.errs, g.Patterns.errs...)
	f.Patterns = make([]ast.Pattern, 0, len(g.Patterns.list))
	l.ends = make([]patEnd, 0, cap(f.Patterns))
	for _, t := range g.Patterns.list {
		var pat ast.Pattern
		var toks []lexer.Token
		open := t.ann == annOpen
		if t.ann >= 0 {
			a := g.Patterns.annotated[t.ann]
			pat, toks = l.annotated(a), a.Tokens
			open = a.Pattern != nil && a.Pattern.open
		} else {
			toks = l.peek.Range(lexer.RawCursor(t.first), lexer.RawCursor(t.end))
			var parts *pathParts
			if t.path >= 0 {
				parts = &g.Patterns.paths[t.path]
			}
			pat = l.pattern(toks, parts)
		}
		if pat != nil {
			f.Patterns = append(f.Patterns, pat)
			l.ends = append(l.ends, patEndOf(toks, open))
		}
	}
}

// pattern builds the subject pattern or path of the tokens toks, which
// delimitPattern delimited; parts are a path's, as readPath read them.
func (l *topLowerer) pattern(toks []lexer.Token, parts *pathParts) ast.Pattern {
	if len(toks) == 0 {
		return nil
	}
	if toks[0].Type == tBracketGroup {
		pat := l.open(&toks[0]).subjectPattern()
		l.close()
		return pat
	}
	var nb [8]*ast.NodePattern
	var ab [8]*ast.Arrow
	nodes, arrows := nb[:0], ab[:0]
	for k, ap := range parts.arrows {
		nodes = append(nodes, l.node(&toks[parts.nodes[k]]))
		arrow := l.a.arrows.new()
		arrows = append(arrows, arrow)
		open := &toks[ap.open]
		start, end := open.Pos.Offset, open.Pos.Offset+len(open.Value)
		if ap.subject >= 0 {
			sub := &toks[ap.subject]
			arrow.Subject = l.open(sub).arrowSubject()
			l.close()
			end = sub.Pos.Offset + len(sub.Value)
		}
		if ap.close >= 0 {
			c := &toks[ap.close]
			end = c.Pos.Offset + len(c.Value)
			setArrowKind(arrow, open.Value, c.Value)
		}
		arrow.Span = l.src.Span(start, end)
	}
	if len(parts.nodes) > len(parts.arrows) {
		nodes = append(nodes, l.node(&toks[parts.nodes[len(parts.nodes)-1]]))
	}
	return buildPath(l.a, l.src, nodes, arrows)
}

// node parses the (...) group t as a node pattern.
func (l *topLowerer) node(t *lexer.Token) *ast.NodePattern {
	n := l.open(t).nodePattern()
	l.close()
	return n
}

func (l *topLowerer) annotated(g *docAnnotated) ast.Pattern {
	if g == nil {
		return nil
	}
	var inner ast.Pattern
	if g.Pattern != nil {
		l.errs = append(l.errs, g.Pattern.errs...)
		inner = l.pattern(g.Pattern.toks, &g.Pattern.parts)
	}
	ap := &ast.AnnotatedPattern{Pattern: inner, Span: span(l.src, g.Tokens)}
	if g.Ident != nil {
		ia := &ast.IdentifiedAnnotation{Span: span(l.src, g.Ident.Tokens)}
		if g.Ident.Ident.Type != 0 {
			p := hparser{a: l.a, src: l.src, tok: g.Ident.Ident}
			p.tokEnd = p.tok.Pos.Offset + len(p.tok.Value)
			ia.Identifier = p.identifier()
		}
		if len(g.Ident.Labels) > 0 {
			ia.Labels = make([]ast.Label, 0, len(g.Ident.Labels))
			for _, gl := range g.Ident.Labels {
				lb := ast.Label{DoubleColon: gl.Sep == "::", Name: gl.Name.Value, Span: span(l.src, gl.Tokens)}
				if gl.Name.Type == tBTString {
					lb.Quoted = true
					lb.Name = unquote(gl.Name.Value)
				}
				ia.Labels = append(ia.Labels, lb)
			}
		}
		if ia.Identifier == nil && len(ia.Labels) == 0 && len(g.Ident.Tokens) > 0 {
			t := &g.Ident.Tokens[0]
			l.errs = append(l.errs, &parseError{start: t.Pos.Offset, end: t.Pos.Offset + len(t.Value),
				summary: "@@ needs an identifier or labels",
				detail:  "An identified annotation names the annotated pattern: write @@id, @@:Label or @@id:Label before the pattern."})
		}
		ap.Annotations = append(ap.Annotations, ia)
	}
	for _, p := range g.Props.list {
		if p == nil {
			continue
		}
		pa := &ast.PropertyAnnotation{
			Key:  &ast.Symbol{Name: p.Key.Value, Span: tokSpan(l.src, &p.Key)},
			Span: span(l.src, p.Tokens),
		}
		if p.Value != nil && p.Value.tok != nil {
			vp := l.open(p.Value.tok)
			vp.next() // (
			pa.Value = vp.value()
			if vp.err == nil && !vp.is(")") {
				vp.unexpected(`")" after the annotation's value`)
			}
			vp.next()
			l.close()
		}
		ap.Annotations = append(ap.Annotations, pa)
	}
	return ap
}
