package syntax

import (
	"fmt"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// hparser is the hand-written recursive-descent parser for the inside of a
// bracketed group: nodes, subject patterns, arrow subjects, records and
// values. Participle's top-level grammar (topgrammar.go) hands it each
// group token. It follows the reference grammar (docs/gram.ebnf of
// tree-sitter-gram) production for production, builds ast nodes directly
// and stops at the first error, which it records with a message that says
// how to fix it. Recursion depth is bounded by MaxNesting, which the coarse
// scanner enforces before any group is parsed.
type hparser struct {
	sc      scanner
	tok     lexer.Token // current token
	tokEnd  int         // offset of the end of the current token
	prevEnd int         // offset of the end of the last consumed token
	err     *parseError
	a       *arena
	src     *ast.Source // the file: every node's span points at it
	pr      hpathReader // path's
}

// parseError is a syntax error found by the hand-written parser or the
// document grammar's hand-written parts: byte offsets of the offending
// text, resolved to positions when the error is reported.
type parseError struct {
	start, end int
	summary    string
	detail     string
	code       diag.Code // "" means diag.CodeSyntax
	suggestion string
}

func (p *hparser) init(src *ast.Source, t *lexer.Token, a *arena) {
	p.sc.initInner(t)
	p.err = nil
	p.a = a
	p.src = src
	p.next()
}

// next advances to the next token.
func (p *hparser) next() {
	p.prevEnd = p.tokEnd
	t, err := p.sc.fine()
	if err != nil {
		se := p.sc.err
		p.failAt(se.offset, se.end, se.summary, se.detail)
		return
	}
	p.tok = t
	// The scanner stops right after the token (it skips the following
	// space on the next call), so its position is the token's end.
	p.tokEnd = p.sc.base + p.sc.off
}

// tokSpan is the span of the current token.
func (p *hparser) tokSpan() ast.Span { return p.src.Span(p.tok.Pos.Offset, p.tokEnd) }

func (p *hparser) failAt(start, end int, summary, detail string) {
	if p.err == nil {
		p.err = &parseError{start: start, end: end, summary: summary, detail: detail}
	}
	// Stop: pretend the group ends here.
	p.tok = lexer.Token{Type: lexer.EOF, Pos: p.tok.Pos}
}

// fail reports an error at the current token.
func (p *hparser) fail(summary, detail string) {
	if p.err != nil {
		return
	}
	p.failAt(p.tok.Pos.Offset, p.tokEnd, summary, detail)
}

// unexpected reports the current token as unexpected; want says what was
// expected.
func (p *hparser) unexpected(want string) {
	if p.err != nil {
		return
	}
	if p.tok.Type == tPunct && (p.tok.Value == "@" || p.tok.Value == "@@") {
		p.fail("annotations cannot appear here",
			"Annotations such as @key(value) or @@id come before a whole top-level pattern: @desc(\"x\") (a)-->(b). Inside a node, arrow or subject pattern, put the data in the record: (a {desc: \"x\"}).")
		return
	}
	if summary, detail, fix, ok := wrongArrow(&p.tok); ok {
		p.fail(summary, detail)
		p.err.code, p.err.suggestion = diag.CodeWrongArrow, fix
		return
	}
	p.fail("unexpected "+describe(&p.tok), "Expected "+want+" here.")
}

func (p *hparser) is(punct string) bool {
	return p.tok.Type == tPunct && p.tok.Value == punct
}

// expect consumes the punctuation punct or reports an error.
func (p *hparser) expect(punct, want string) bool {
	if p.is(punct) {
		p.next()
		return true
	}
	p.unexpected(want)
	return false
}

func (p *hparser) start() int { return p.tok.Pos.Offset }

func (p *hparser) span(start int) ast.Span { return p.src.Span(start, p.prevEnd) }

// nodePattern parses `( subject )`.
func (p *hparser) nodePattern() *ast.NodePattern {
	n := p.a.nodes.new()
	start := p.start()
	p.expect("(", `"("`)
	p.subject(&n.Subject)
	if !p.is(")") {
		if n.Subject.IsEmpty() && p.isAnnotation() {
			p.fail("annotations cannot appear inside a node",
				"Annotations such as @key(value) or @@id come before a whole top-level pattern: @desc(\"x\") (a)-->(b). Inside a node, put the data in the record: (a {desc: \"x\"}).")
		}
		p.unexpected(p.subjectWant(&n.Subject, `")"`))
	} else {
		p.next()
	}
	n.Span = p.span(start)
	return n
}

func (p *hparser) isAnnotation() bool { return p.is("@") || p.is("@@") }

// subjectWant describes what may follow the parts of s already parsed.
func (p *hparser) subjectWant(s *ast.Subject, closer string) string {
	switch {
	case s.Record != nil:
		return closer
	case len(s.Labels) > 0:
		return "a label, a record or " + closer
	case s.Identifier != nil:
		return "labels (:Label), a record or " + closer
	}
	return "an identifier, labels, a record or " + closer
}

// subjectPattern parses `[ subject? ( | elements )? ]`.
func (p *hparser) subjectPattern() *ast.SubjectPattern {
	sp := p.a.subjects.new()
	start := p.start()
	p.expect("[", `"["`)
	p.subject(&sp.Subject)
	if p.is("|") {
		p.next()
		a := p.a
		base := len(a.patStack)
		for p.err == nil {
			e := p.element()
			if e != nil {
				a.patStack = append(a.patStack, e)
			}
			if !p.is(",") {
				break
			}
			p.next()
		}
		sp.Elements = a.patterns.clone(a.patStack[base:])
		if sp.Elements == nil {
			sp.Elements = []ast.Pattern{}
		}
		clear(a.patStack[base:])
		a.patStack = a.patStack[:base]
	}
	if !p.is("]") {
		if sp.Elements == nil {
			if p.isAnnotation() && sp.Subject.IsEmpty() {
				p.fail("annotations cannot appear inside a subject pattern's subject",
					"Annotations such as @key(value) or @@id come before the whole pattern: @desc(\"x\") [a | b].")
			}
			p.unexpected(p.subjectWant(&sp.Subject, `"|" or "]"`))
		} else {
			p.unexpected(`"," or "]"`)
		}
	} else {
		p.next()
	}
	sp.Span = p.span(start)
	return sp
}

// element parses one element of a subject pattern: a subject pattern, a
// path or a pattern reference.
func (p *hparser) element() ast.Pattern {
	switch p.tok.Type {
	case tPunct:
		switch p.tok.Value {
		case "[":
			return p.subjectPattern()
		case "(":
			return p.path()
		}
	case tSymbol, tBTString, tInteger:
		id := p.identifier()
		r := p.a.refs.new()
		*r = ast.PatternReference{Identifier: id, Span: id.Span}
		return r
	}
	p.unexpected("a pattern element: [subject pattern], (node), a path or an identifier")
	return nil
}

// path parses a node or a chain node arrow node ... and builds the
// right-recursive tree. Its shape is readPath's (pathshape.go), read here
// over the fine tokens inside a group (hpathReader), iteratively: a long
// chain does not recurse.
func (p *hparser) path() ast.Pattern {
	// The reader is the parser's, reused: a path's nodes and arrows hold
	// no path, so paths are read one at a time.
	r := &p.pr
	*r = hpathReader{p: p, nodes: r.nodes[:0], arrows: r.arrows[:0]}
	readPath(r)
	if len(r.arrows) == 0 {
		return r.nodes[0]
	}
	return buildPath(p.a, p.src, r.nodes, r.arrows)
}

// hpathReader reads a path for hparser.path, building its nodes and
// arrows as it reads them and reporting each problem as the group
// parser does, at the first error of the group.
type hpathReader struct {
	p      *hparser
	nodes  []*ast.NodePattern
	arrows []*ast.Arrow
	start  int    // where the arrow being read starts
	open   string // its opening piece
	// where its closing piece is
	closeStart, closeEnd int
}

func (r *hpathReader) node() bool {
	if r.p.err != nil || !r.p.is("(") {
		return false
	}
	r.nodes = append(r.nodes, r.p.nodePattern())
	return true
}

func (r *hpathReader) arrowOpen() (string, bool) {
	p := r.p
	if p.err != nil || !p.isArrowOpen() {
		return "", false
	}
	a := p.a.arrows.new()
	r.arrows = append(r.arrows, a)
	r.start, r.open = p.start(), p.tok.Value
	p.next()
	return r.open, true
}

func (r *hpathReader) arrowSubject() bool {
	p := r.p
	if p.is("[") {
		a := r.arrows[len(r.arrows)-1]
		a.Subject = p.arrowSubject()
		if p.err != nil {
			a.Span = p.span(r.start)
			return false
		}
	}
	return true
}

func (r *hpathReader) arrowClose() (string, bool) {
	p := r.p
	if p.tok.Type != tPunct || !isArrowClose(p.tok.Value) {
		return "", false
	}
	c := p.tok.Value
	r.closeStart, r.closeEnd = p.tok.Pos.Offset, p.tokEnd
	p.next()
	a := r.arrows[len(r.arrows)-1]
	setArrowKind(a, r.open, c)
	a.Span = p.span(r.start)
	return c, true
}

func (r *hpathReader) fail(problem pathProblem, open string) {
	p := r.p
	switch problem {
	case problemTooLong:
		// Reported at the arrow's opening piece, which is not part of
		// the path.
		r.arrows = r.arrows[:len(r.arrows)-1]
		p.failAt(r.start, r.start+len(open), "path too long", pathTooLong)
	case problemArrowCut:
		p.unexpected(fmt.Sprintf("the rest of the arrow (%q, %q, ...)", open[len(open)-1:], open[len(open)-1:]+">"))
		r.arrows[len(r.arrows)-1].Span = p.span(r.start)
	case problemArrowMixed:
		p.failAt(r.closeStart, r.closeEnd, "arrow mixes line styles", arrowMixed)
	case problemNodeMissing:
		if p.tok.Type == tSymbol {
			p.fail("expected a node after the arrow, found "+describe(&p.tok), nodeAfterArrow)
		}
		p.unexpected(`a node "(" after the arrow`)
	}
}

// nodeAfterArrow explains the most common mistake after an arrow: the
// older textual signature form "(name: Text) --> IO Text".
const nodeAfterArrow = "A path joins nodes: (a)-->(b). A tool signature writes each parameter and the result as a node, e.g. (name::String)==>(::String); the form (name: Text) --> IO Text is not gram."

// pathTooLong explains the limit on relationships in one path: a path is
// a chain of relationships nested in one another, so it counts against
// MaxNesting like brackets do.
const pathTooLong = "A path may chain at most 1000 relationships: each relationship nests the rest of the path, and deeper trees are rejected like deeply nested brackets. Split the path into several patterns that share node identifiers, e.g. (a)-->(b) and (b)-->(c)."

// buildPath builds the right-recursive relationship chain of nodes joined
// by arrows (len(arrows) <= len(nodes)).
func buildPath(a *arena, src *ast.Source, nodes []*ast.NodePattern, arrows []*ast.Arrow) ast.Pattern {
	if len(arrows) == 0 {
		return nodes[0]
	}
	n := len(arrows)
	var right ast.Pattern
	if len(nodes) > n {
		right = nodes[n]
	}
	_, end := arrows[n-1].Offsets()
	if right != nil {
		_, end = right.(*ast.NodePattern).Offsets()
	}
	for i := n - 1; i >= 0; i-- {
		rel := a.rels.new()
		start, _ := nodes[i].Offsets()
		*rel = ast.RelationshipPattern{Left: nodes[i], Arrow: arrows[i], Right: right, Span: src.Span(start, end)}
		right = rel
	}
	return right
}

func (p *hparser) isArrowOpen() bool {
	return p.tok.Type == tPunct && isArrowOpen(p.tok.Value)
}

// arrowSubject parses the [subject] group of an arrow.
func (p *hparser) arrowSubject() *ast.Subject {
	p.next() // [
	s := &ast.Subject{}
	p.subject(s)
	if !p.is("]") {
		if s.IsEmpty() && p.isAnnotation() {
			p.fail("annotations cannot appear inside a relationship",
				"Annotations such as @key(value) or @@id come before a whole top-level pattern: @desc(\"x\") (a)-[r]->(b). Inside an arrow, put the data in the record: -[r {desc: \"x\"}]->.")
		}
		p.unexpected(p.subjectWant(s, `"]"`))
	} else {
		p.next()
	}
	return s
}

// arrowMixed explains an arrow whose pieces use different lines.
const arrowMixed = "An arrow is drawn with one kind of line: -->, ==> or ~~> (and -[r]->, =[r]=>, ~[r]~>). Use the same character on both sides."

// setArrowKind sets a's kind and style from its opening and closing
// pieces ("<-" and "->", ...).
func setArrowKind(a *ast.Arrow, open, close string) {
	left := open[0] == '<'
	right := len(close) == 2
	switch open[len(open)-1] {
	case '=':
		a.Style = ast.DoubleArrow
	case '~':
		a.Style = ast.SquiggleArrow
	default:
		a.Style = ast.SingleArrow
	}
	// Alike in shape to tokens.go's number kinds; nothing is shared.
	switch {
	case left && right:
		a.Kind = ast.BidirectionalArrow
	case left:
		a.Kind = ast.LeftArrow
	case right:
		a.Kind = ast.RightArrow
	default:
		a.Kind = ast.UndirectedArrow
	}
}

// subject parses identifier? labels? record?.
func (p *hparser) subject(s *ast.Subject) {
	switch p.tok.Type {
	case tSymbol, tBTString, tInteger:
		s.Identifier = p.identifier()
	}
	if p.is(":") || p.is("::") {
		s.Labels = p.labels()
	}
	if p.is("{") {
		s.Record = p.record()
	}
}

func (p *hparser) identifier() *ast.Identifier {
	id := p.a.ids.new()
	*id = identifier(&p.tok, p.tokSpan())
	p.next()
	return id
}

// labels parses one or more `:Name` / `::Name`.
func (p *hparser) labels() []ast.Label {
	a := p.a
	base := len(a.labelStack)
	for p.err == nil && (p.is(":") || p.is("::")) {
		lstart := p.start()
		lb := ast.Label{DoubleColon: p.tok.Value == "::"}
		p.next()
		switch p.tok.Type {
		case tSymbol:
			lb.Name = p.tok.Value
		case tBTString:
			lb.Quoted = true
			lb.Name = unquote(p.tok.Value)
		default:
			p.unexpected("a label name (a symbol or a `quoted name`)")
			continue
		}
		p.next()
		lb.Span = p.span(lstart)
		a.labelStack = append(a.labelStack, lb)
	}
	ls := a.labels.clone(a.labelStack[base:])
	clear(a.labelStack[base:])
	a.labelStack = a.labelStack[:base]
	return ls
}

// record parses `{ key: value, ... }`.
func (p *hparser) record() *ast.Record {
	r := p.a.records.new()
	start := p.start()
	p.next() // {
	if !p.is("}") {
		a := p.a
		base := len(a.propStack)
		for p.err == nil {
			a.propStack = append(a.propStack, p.property())
			if !p.is(",") {
				break
			}
			p.next()
		}
		r.Properties = a.props.clone(a.propStack[base:])
		clear(a.propStack[base:])
		a.propStack = a.propStack[:base]
	}
	p.expect("}", `"," or "}"`)
	r.Span = p.span(start)
	return r
}

// key parses a key into k.
func (p *hparser) key(k *ast.Key) {
	t := &p.tok
	switch t.Type {
	case tSymbol, tBTString, tDQString:
	default:
		p.unexpected("a key (a symbol, a `quoted name` or a \"double-quoted name\")")
		return
	}
	*k = key(t, p.tokSpan())
	p.next()
}

// property parses `key: value` or `key:: value`.
func (p *hparser) property() ast.Property {
	var prop ast.Property
	start := p.start()
	p.key(&prop.Key)
	if p.err == nil {
		if p.is(":") || p.is("::") {
			prop.DoubleColon = p.tok.Value == "::"
			p.next()
			prop.Value = p.value()
		} else {
			p.unexpected(`":" after the key`)
		}
	}
	prop.Span = p.span(start)
	return prop
}

// value parses any value: a scalar, an array or a map.
func (p *hparser) value() ast.Value {
	if p.tok.Type == tPunct {
		switch p.tok.Value {
		case "[":
			return p.array()
		case "{":
			return p.mapValue()
		}
	}
	return p.scalar()
}

// array parses `[ scalar, ... ]` (non-empty, scalars only).
func (p *hparser) array() ast.Value {
	a := &ast.Array{}
	start := p.start()
	open := p.tok
	p.next() // [
	if p.is("]") {
		p.failAt(open.Pos.Offset, p.tokEnd, "[] is an empty pattern, not an array",
			"In gram, [] is an empty subject pattern, and arrays must not be empty. Leave the property out, or give at least one element: [\"a\"].")
		return a
	}
	base := len(p.a.valStack)
	for p.err == nil {
		if p.is("{") {
			p.fail("arrays hold scalars only",
				"An array may contain numbers, strings, symbols, booleans and ranges, but not maps. To describe structured items, declare a named type ([Item:Type | (name::String), ...]) and refer to it, e.g. {elementType: Item}; in a test's args or returns, write the whole value as JSON in a tagged string: json`[{\"id\": 1}]`.")
			break
		}
		if p.is("[") {
			p.fail("arrays hold scalars only",
				"An array may contain numbers, strings, symbols, booleans and ranges, but not other arrays. Flatten the values into one array.")
			break
		}
		if v := p.scalar(); v != nil {
			p.a.valStack = append(p.a.valStack, v)
		}
		if !p.is(",") {
			break
		}
		p.next()
	}
	a.Elements = p.a.values.clone(p.a.valStack[base:])
	clear(p.a.valStack[base:])
	p.a.valStack = p.a.valStack[:base]
	p.expect("]", `"," or "]"`)
	a.Span = p.span(start)
	return a
}

// mapValue parses `{ key: scalar, ... }` in value position.
func (p *hparser) mapValue() ast.Value {
	m := &ast.Map{}
	start := p.start()
	p.next() // {
	if !p.is("}") {
		for p.err == nil {
			var e ast.MapEntry
			estart := p.start()
			p.key(&e.Key)
			if p.err != nil {
				break
			}
			switch {
			case p.is(":"):
				p.next()
			case p.is("::"):
				p.fail(`map entries use ":"`, `Inside a map (a record used as a value) keys are followed by a single ":"; "::" is only allowed in records attached to patterns.`)
			default:
				p.unexpected(`":" after the key`)
			}
			if p.err != nil {
				break
			}
			if p.is("{") || p.is("[") {
				p.fail("maps hold scalars only",
					"A map inside a record may only hold scalar values (numbers, strings, symbols, booleans, ranges), not maps or arrays. Promote the inner structure to a node or a named type; in a test's args or returns, write the whole value as JSON in a tagged string: json`{\"tags\": [\"billing\"]}`.")
				break
			}
			e.Value = p.scalar()
			e.Span = p.span(estart)
			m.Entries = append(m.Entries, e)
			if !p.is(",") {
				break
			}
			p.next()
		}
	}
	p.expect("}", `"," or "}"`)
	m.Span = p.span(start)
	return m
}

// scalar parses a number, a range, a boolean, a symbol, a string or a
// tagged string.
func (p *hparser) scalar() ast.Value {
	t := &p.tok
	switch t.Type {
	case tInteger, tDecimal, tHex, tOctal, tMeasurement:
		start := p.start()
		lower := number(p.a, t, p.tokSpan())
		p.next()
		if p.is("..") {
			p.next()
			r := &ast.RangeValue{Lower: lower}
			if up := p.rangeBound(); up != nil {
				r.Upper = up
			}
			r.Span = p.span(start)
			return r
		}
		if p.is("...") {
			p.next()
			return &ast.RangeValue{Lower: lower, Span: p.span(start)}
		}
		return lower
	case tSymbol, tSQString, tDQString, tBTString, tTagged, tFenced:
		v := stringValue(p.a, t, p.tokSpan())
		p.next()
		return v
	case tPunct:
		if t.Value == "..." {
			start := p.start()
			p.next()
			if up := p.rangeBound(); up != nil {
				return &ast.RangeValue{Upper: up, Span: p.span(start)}
			}
			return nil
		}
	}
	p.unexpected("a value (a number, range, string, symbol or boolean)")
	return nil
}

// rangeBound parses the number after ".." or "...".
func (p *hparser) rangeBound() *ast.Number {
	switch p.tok.Type {
	case tInteger, tDecimal, tHex, tOctal, tMeasurement:
		n := number(p.a, &p.tok, p.tokSpan())
		p.next()
		return n
	}
	p.unexpected("a number to bound the range")
	return nil
}
