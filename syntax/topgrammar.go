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
	errs      []*parseError // how the tokens of the paths fit together
	err       error         // the annotated pattern that failed to parse, if any
}

// docTop is one top-level pattern, or a run of them: the annotated pattern
// annotated[ann], or (ann < 0) the tokens [first, end) of the token stream:
// one subject pattern or path, or one tRun token (ann is annOpen for a
// path cut short after an arrow, else -1). It is three integers because a
// document may have tens of thousands of them.
type docTop struct {
	first, end, ann int32
}

// annOpen is docTop.ann for a path cut short.
const annOpen = -2

func (g *docPatterns) Parse(lex *lexer.PeekingLexer) error {
	for {
		if t := lex.Peek(); t.Type == tRun {
			first := lex.RawCursor()
			lex.Next()
			g.list = append(g.list, docTop{first: int32(first), end: int32(first) + 1, ann: -1})
			continue
		} else if t.Type == tPunct && (t.Value == "@" || t.Value == "@@") {
			ann, err := annotatedGrammar.ParseFromLexer(lex, participle.AllowTrailing(true))
			if err != nil {
				// Keep the patterns parsed so far (a partial file) and
				// stop; ParseFile reports err.
				g.err = err
				break
			}
			g.list = append(g.list, docTop{ann: int32(len(g.annotated))})
			g.annotated = append(g.annotated, ann)
			continue
		}
		first, end, ok, open := delimitPattern(lex, &g.errs)
		if !ok {
			break
		}
		ann := int32(-1)
		if open {
			ann = annOpen
		}
		g.list = append(g.list, docTop{first: int32(first), end: int32(end), ann: ann})
	}
	if len(g.list) == 0 && g.err == nil {
		return participle.NextMatch
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
	toks []lexer.Token // the pattern's tokens (a window of the token stream)
	errs []*parseError
	open bool // a path cut short after an arrow
}

func (g *patternGroup) Parse(lex *lexer.PeekingLexer) error {
	first, end, ok, open := delimitPattern(lex, &g.errs)
	g.open = open
	if !ok {
		return participle.NextMatch
	}
	g.toks = lex.Range(first, end)
	return nil
}

// delimitPattern consumes the tokens of a subject pattern or path at the
// head of lex and returns where they are in the token stream; errors in
// how they fit together go to errs. It reports false, consuming nothing,
// when no pattern starts there; open is true for a path cut short after
// an arrow (parseRecovering parses it again when what follows is blanked).
func delimitPattern(lex *lexer.PeekingLexer, errs *[]*parseError) (first, end lexer.RawCursor, ok, open bool) {
	t := lex.Peek()
	if t.Type != tBracketGroup && t.Type != tParenGroup {
		return 0, 0, false, false
	}
	first = lex.RawCursor()
	if t.Type == tBracketGroup {
		lex.Next()
		return first, lex.RawCursor(), true, false
	}
	r := tokenReader{lex: lex, errs: errs}
	readPath(&r)
	return first, lex.RawCursor(), true, r.open
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

	runToks     []runTok      // the tokens of the runs, from the scanner
	runPatterns int           // how many patterns the runs hold
	runNext     int           // the next of runToks to lower
	toks        []lexer.Token // the tokens of one pattern of a run

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
	f.Patterns = make([]ast.Pattern, 0, len(g.Patterns.list)+l.runPatterns)
	l.ends = make([]patEnd, 0, cap(f.Patterns))
	for _, t := range g.Patterns.list {
		var pat ast.Pattern
		var toks []lexer.Token
		open := t.ann == annOpen
		if t.ann >= 0 {
			a := g.Patterns.annotated[t.ann]
			pat, toks = l.annotated(a), a.Tokens
			open = a.Pattern != nil && a.Pattern.open
		} else if toks = l.peek.Range(lexer.RawCursor(t.first), lexer.RawCursor(t.end)); len(toks) == 1 && toks[0].Type == tRun {
			f.Patterns = l.run(&toks[0], f.Patterns)
		} else {
			pat = l.pattern(toks)
		}
		if pat != nil {
			f.Patterns = append(f.Patterns, pat)
			l.ends = append(l.ends, patEndOf(toks, open))
		}
	}
}

// run appends to out the patterns of the tRun token t, which the scanner
// has checked are complete and well-formed subject patterns and paths and
// whose tokens it recorded (runToks, consumed in order from runNext).
func (l *topLowerer) run(t *lexer.Token, out []ast.Pattern) []ast.Pattern {
	start := int32(t.Pos.Offset)
	for l.runNext < len(l.runToks) && l.runToks[l.runNext].start < start {
		l.runNext++ // not reached: each run's tokens are all lowered
	}
	r := runTokReader{l: l, text: l.src.Text(), end: start + int32(len(t.Value)), toks: l.toks}
	r.advance()
	for r.tok.Type == tBracketGroup || r.tok.Type == tParenGroup {
		r.toks = r.toks[:0]
		if r.tok.Type == tBracketGroup {
			r.take()
		} else {
			readPath(&r)
		}
		if p := l.pattern(r.toks); p != nil {
			out = append(out, p)
			l.ends = append(l.ends, patEndOf(r.toks, false))
		}
	}
	l.toks = r.toks
	return out
}

// runTokReader reads a path of a run from the tokens the scanner recorded
// (pathshape.go's third reader), gathering them for topLowerer.pattern.
// The scanner's runReader has checked the path's shape, so it never fails.
type runTokReader struct {
	l    *topLowerer
	text string
	end  int32         // where the run ends
	tok  lexer.Token   // the next token (EOF at the run's end)
	toks []lexer.Token // the tokens of the pattern read
}

// advance reads the run's next token into tok.
func (r *runTokReader) advance() {
	l := r.l
	if l.runNext == len(l.runToks) || l.runToks[l.runNext].start >= r.end {
		r.tok = lexer.Token{Type: lexer.EOF}
		return
	}
	rt := l.runToks[l.runNext]
	l.runNext++
	r.tok = lexer.Token{Type: lexer.TokenType(rt.typ), Value: r.text[rt.start:rt.end], Pos: lexer.Position{Offset: int(rt.start)}}
}

// take gathers tok and advances.
func (r *runTokReader) take() {
	r.toks = append(r.toks, r.tok)
	r.advance()
}

func (r *runTokReader) piece(ok func(string) bool) (string, bool) {
	if r.tok.Type != tPunct || !ok(r.tok.Value) {
		return "", false
	}
	v := r.tok.Value
	r.take()
	return v, true
}

func (r *runTokReader) node() bool {
	if r.tok.Type != tParenGroup {
		return false
	}
	r.take()
	return true
}

func (r *runTokReader) arrowOpen() (string, bool)  { return r.piece(isArrowOpen) }
func (r *runTokReader) arrowClose() (string, bool) { return r.piece(isArrowClose) }

func (r *runTokReader) arrowSubject() bool {
	if r.tok.Type == tBracketGroup {
		r.take()
	}
	return true
}

func (r *runTokReader) fail(pathProblem, string) {}

// pattern builds the subject pattern or path of the tokens toks, which
// delimitPattern delimited.
func (l *topLowerer) pattern(toks []lexer.Token) ast.Pattern {
	if len(toks) == 0 {
		return nil
	}
	var pat ast.Pattern
	if toks[0].Type == tBracketGroup {
		pat = l.open(&toks[0]).subjectPattern()
		l.close()
		return pat
	}
	var nb [8]*ast.NodePattern
	var ab [8]*ast.Arrow
	nodes, arrows := append(nb[:0], l.node(&toks[0])), ab[:0]
	// delimitPattern has checked the tokens: arrow pieces and node groups
	// alternate, up to where it found an error.
	for i := 1; i < len(toks); {
		t := &toks[i]
		arrow := l.a.arrows.new()
		arrows = append(arrows, arrow)
		open, start := t.Value, t.Pos.Offset
		arrow.Span = tokSpan(l.src, t)
		if i++; i < len(toks) && toks[i].Type == tBracketGroup {
			arrow.Subject = l.open(&toks[i]).arrowSubject()
			l.close()
			i++
		}
		if i == len(toks) {
			_, end := arrow.Offsets()
			if arrow.Subject != nil {
				end = toks[i-1].Pos.Offset + len(toks[i-1].Value)
			}
			arrow.Span = l.src.Span(start, end)
			break
		}
		c := &toks[i]
		arrow.Span = l.src.Span(start, c.Pos.Offset+len(c.Value))
		setArrowKind(arrow, open, c.Value)
		if i++; i == len(toks) {
			break
		}
		nodes = append(nodes, l.node(&toks[i]))
		i++
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
		inner = l.pattern(g.Pattern.toks)
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
