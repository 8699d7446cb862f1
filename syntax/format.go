package syntax

import (
	"bytes"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// MaxLineWidth is the column (counted in characters) that the formatter
// tries not to pass when it decides whether a record, a map or a
// single-element subject pattern stays on one line.
const MaxLineWidth = 100

// Format prints f in gramc's one canonical layout. The layout depends only
// on the tree (positions are used solely to place comments), so formatting
// formatted text changes nothing. The rules:
//
//   - The header record comes first; top-level patterns follow, separated
//     by exactly one blank line. The output ends in exactly one newline
//     (an empty file stays empty).
//   - Arrows keep their kind and style as written (`==>` stays `==>`);
//     an arrow with an inner subject prints as `-[r:KNOWS {w: 1}]->`.
//   - A node pattern with exactly one label prints it as a type label,
//     `(city::String)`; a node with several labels, and labels anywhere
//     else (subject patterns, arrows, `@@` annotations), print each label
//     with a single colon, `[a:Tool]`, `(n:A:B)`.
//   - Records and maps print as `{k: v, k2: v2}`: one space after the
//     colon (or the `::` a record property was written with) and after each
//     comma; `{}` when empty. Keys keep their quoting (symbol, `backtick`,
//     "double quoted"). A record or map breaks one property per line,
//     indented two spaces, with the closing brace on its own line, when it
//     holds a comment, a multi-line value (a fenced string), or when
//     printed flat it would end past column MaxLineWidth. Arrays print
//     flat, `[1, 2, 3]`, unless they hold a comment: then one element per
//     line, indented two spaces, with `]` on its own line.
//   - Values print as written: numbers from their source text, strings
//     (including fenced strings, byte for byte with their content lines)
//     from Raw.
//   - A subject pattern with elements prints `[subject | e]` on one line
//     only when its subject stays on one line and it has exactly one
//     element that is a reference, a node or a subject pattern that itself
//     stays on one line, no property annotation and no comment, and the
//     whole fits in MaxLineWidth.
//     Otherwise the line ends after `|`, each element goes on its own line
//     indented two more spaces, every element but the last ends with a
//     comma, and `]` closes on its own line.
//   - A path that is an element of a subject pattern, whose arrows are all
//     right arrows without an inner subject and which has three or more
//     nodes (a tool signature with two or more parameters), breaks after
//     each arrow; the following node starts a new line at the same
//     indentation. Every other path prints on one line.
//   - An agent's signature (the first of its elements that is a path or
//     a node) is printed as its first element, the others following in
//     their order; when a comment sits among (or after) the elements
//     they keep their order instead, since comments stay at their place.
//   - Property annotations `@key(value)` each go on their own line before
//     the pattern they annotate; identified annotations `@@id:Label` stay
//     on the pattern's line, followed by one space.
//   - Comments stay at their place: a comment that followed code on the
//     same source line is printed at the end of the corresponding output
//     line (after one space); any other comment gets its own line, indented
//     like the element or property that follows it. At the top level, a
//     blank line between a comment and what surrounds it is kept (at most
//     one). Trailing white space in a comment is removed. A comment that
//     ends a line in the middle of a construct (between a subject's labels
//     and its record, after a key, inside a node) continues the construct
//     on the next line, indented two more spaces.
func Format(f *ast.File) []byte {
	p := &printer{comments: f.Comments, src: f.Source(), lastOff: -1}
	if n := endOf(f); n > 0 {
		p.out = make([]byte, 0, n+n/8+64)
	}
	first := true
	if f.Header != nil {
		p.flushTop(startOf(f.Header))
		p.breakLine()
		p.record(f.Header)
		first = false
	}
	for _, pat := range f.Patterns {
		if pat == nil {
			continue
		}
		if !first {
			p.flushTrailing(startOf(pat))
			p.blankLine()
		}
		p.flushTop(startOf(pat))
		p.breakLine()
		p.pattern(pat, topLevel)
		first = false
	}
	p.flush(math.MaxInt)
	p.breakLine()
	return p.out
}

// FormatSource parses src and formats it. When src has syntax errors it
// returns nil and the diagnostics: a broken file is never formatted.
// Warnings, if any, are returned alongside the formatted text.
func FormatSource(filename string, src []byte) ([]byte, diag.Diagnostics) {
	f, diags := ParseFile(filename, src)
	if diags.HasErrors() {
		return nil, diags
	}
	return Format(f), diags
}

// context says where a pattern is printed; it decides how paths break.
type context int

const (
	topLevel context = iota // a top-level pattern
	element                 // an element of a subject pattern
)

// printer accumulates formatted output. Indentation is written lazily,
// when the first text of a line arrives, so no line ever ends in spaces the
// printer added.
type printer struct {
	out      []byte
	indent   int            // current indentation level (two spaces each)
	comments []*ast.Comment // every comment of the file, in source order
	next     int            // index of the next comment to print

	// lastOff is the source offset at which the last printed node or
	// comment started or ended (-1 before the first): a comment on its line
	// is an end-of-line comment. Lines are looked up in src only when a
	// comment needs them.
	lastOff int
	src     *ast.Source // nil for a tree built by hand: no lines
	// lineStart is true when out is empty or ends in a newline.
	lineStart bool
	// needNL is true after a line comment: a newline must come before any
	// more text.
	needNL bool

	// trial printers measure a construct printed flat: they never break
	// and fail when something can only be printed broken or gets too wide.
	trial  bool
	budget int  // characters a trial printer may still write
	failed bool // the trial went past its budget or met a forced break

	scratch *printer // the trial printer, reused
}

// text writes s, first finishing a pending line comment and indenting a
// fresh line.
func (p *printer) text(s string) {
	if p.trial {
		if p.failed {
			return
		}
		p.budget -= utf8.RuneCountInString(s)
		if p.budget < 0 || strings.IndexByte(s, '\n') >= 0 {
			p.failed = true
			return
		}
		p.out = append(p.out, s...)
		return
	}
	indent := p.indent
	if p.needNL {
		// A comment ended the line in the middle of a construct (no
		// structural line break came after it): the construct continues
		// on the next line, one level deeper; a closing bracket lines up
		// with the construct's start.
		p.newline()
		if s == "" || !strings.ContainsRune(")]}", rune(s[0])) {
			indent++
		}
	}
	if p.lineStart && len(s) > 0 {
		for i := 0; i < indent; i++ {
			p.out = append(p.out, "  "...)
		}
		p.lineStart = false
	}
	p.out = append(p.out, s...)
}

// space writes one space between two pieces of text on the same line.
func (p *printer) space() {
	if p.lineStart || p.needNL || (len(p.out) == 0 && !p.trial) {
		return
	}
	p.text(" ")
}

func (p *printer) newline() {
	p.out = append(p.out, '\n')
	p.lineStart = true
	p.needNL = false
}

// breakLine ends the current line unless it is empty.
func (p *printer) breakLine() {
	if p.trial {
		p.failed = true
		return
	}
	if len(p.out) > 0 && !p.lineStart {
		p.newline()
	}
}

// blankLine ends the current line and makes sure exactly one empty line
// follows (except at the start of the output).
func (p *printer) blankLine() {
	p.breakLine()
	n := len(p.out)
	if n == 0 || (n >= 2 && p.out[n-2] == '\n') {
		return
	}
	p.newline()
}

// column returns the column (in characters, 0-based) where the next text
// would start.
func (p *printer) column() int {
	if p.lineStart || p.needNL {
		return 2 * p.indent
	}
	i := bytes.LastIndexByte(p.out, '\n') + 1
	return utf8.RuneCount(p.out[i:])
}

// trialPrinter returns the scratch printer that measures a construct
// printed flat from the current column.
func (p *printer) trialPrinter() *printer {
	q := p.scratch
	if q == nil {
		q = &printer{trial: true}
		p.scratch = q
	}
	q.out = q.out[:0]
	q.failed = false
	q.budget = MaxLineWidth - p.column()
	if q.budget < 0 {
		q.failed = true
	}
	return q
}

// fitsBraces reports whether a record or map, printed flat from the
// current column, ends no later than MaxLineWidth and needs no line break.
func (p *printer) fitsBraces(n ast.Node) bool {
	q := p.trialPrinter()
	if !q.failed {
		q.flatBraces(n)
	}
	return !q.failed
}

// hasComments reports whether a comment starts inside n.
func (p *printer) hasComments(n ast.Node) bool { return p.commentsBetween(startOf(n), endOf(n)) }

// flush prints the comments that start before offset off.
func (p *printer) flush(off int) {
	for p.next < len(p.comments) && startOf(p.comments[p.next]) < off {
		p.comment(p.comments[p.next])
		p.next++
	}
}

// flushTrailing prints the end-of-line comments of the current line that
// start before off.
func (p *printer) flushTrailing(off int) {
	for p.next < len(p.comments) {
		c := p.comments[p.next]
		if startOf(c) >= off || !p.isTrailing(c) {
			return
		}
		p.comment(c)
		p.next++
	}
}

// flushTop prints the comments before a top-level item at pos, keeping a
// blank line between the last of them and the item when the source had
// one.
func (p *printer) flushTop(off int) {
	printed := false
	for p.next < len(p.comments) && startOf(p.comments[p.next]) < off {
		c := p.comments[p.next]
		if last := p.line(p.lastOff); !p.isTrailing(c) && last > 0 && p.line(startOf(c)) > last+1 {
			p.blankLine()
		}
		p.comment(c)
		p.next++
		printed = true
	}
	if last := p.line(p.lastOff); printed && last > 0 && p.line(off) > last+1 {
		p.blankLine()
	}
}

// line returns the source line of offset off, or 0 when there is none.
func (p *printer) line(off int) int {
	if p.src == nil || off < 0 {
		return 0
	}
	return p.src.Line(off)
}

func (p *printer) isTrailing(c *ast.Comment) bool {
	return !p.lineStart && !p.needNL && len(p.out) > 0 && p.line(startOf(c)) == p.line(p.lastOff)
}

func (p *printer) comment(c *ast.Comment) {
	if p.trial {
		p.failed = true
		return
	}
	// Trailing white space goes: a trailing carriage return would
	// otherwise merge with the newline into a CRLF line end.
	text := strings.TrimRight(c.Text, " \t\r")
	if p.isTrailing(c) {
		if p.out[len(p.out)-1] != ' ' {
			p.out = append(p.out, ' ')
		}
		p.out = append(p.out, text...)
	} else {
		p.breakLine()
		p.text(text)
	}
	p.needNL = true
	p.lastOff = endOf(c)
}

// opened records that the first character of n has been printed.
func (p *printer) opened(n ast.Node) { p.lastOff = startOf(n) }

// done records that the node n has been printed.
func (p *printer) done(n ast.Node) { p.lastOff = endOf(n) }

// startOf and endOf return the offsets of n's start and end without
// computing lines and columns (every node embeds an ast.Span).
func startOf(n ast.Node) int {
	start, _ := n.(interface{ Offsets() (int, int) }).Offsets()
	return start
}

func endOf(n ast.Node) int {
	_, end := n.(interface{ Offsets() (int, int) }).Offsets()
	return end
}

// pattern prints any pattern.
func (p *printer) pattern(pat ast.Pattern, ctx context) {
	if p.failed || pat == nil {
		return
	}
	p.flush(startOf(pat))
	switch pat := pat.(type) {
	case *ast.SubjectPattern:
		p.subjectPattern(pat)
	case *ast.NodePattern:
		p.node(pat)
	case *ast.RelationshipPattern:
		p.path(pat, ctx)
	case *ast.AnnotatedPattern:
		p.annotated(pat, ctx)
	case *ast.PatternReference:
		p.identifier(pat.Identifier)
		p.done(pat)
	}
}

func (p *printer) subjectPattern(sp *ast.SubjectPattern) {
	p.text("[")
	p.opened(sp)
	start := len(p.out)
	p.subject(&sp.Subject, false)
	els := p.signatureFirst(sp)
	if len(els) == 0 {
		p.flush(endOf(sp))
		p.text("]")
		p.done(sp)
		return
	}
	if bytes.IndexByte(p.out[start:], '\n') < 0 && p.inlineElements(sp) {
		if !sp.Subject.IsEmpty() {
			p.space()
		}
		p.text("| ")
		p.pattern(els[0], element)
		p.flush(endOf(sp))
		p.text("]")
		p.done(sp)
		return
	}
	if p.trial {
		p.failed = true
		return
	}
	if !sp.Subject.IsEmpty() {
		p.space()
	}
	p.text("|")
	p.indent++
	for i, e := range els {
		p.flush(startOf(e))
		p.breakLine()
		p.pattern(e, element)
		if i < len(els)-1 {
			p.text(",")
		}
	}
	p.flush(endOf(sp))
	p.indent--
	p.breakLine()
	p.text("]")
	p.done(sp)
}

// signatureFirst returns sp's elements, an agent's with its signature
// (its first path or node element) moved first, unless a comment sits
// among them or after them: comments print in source order, each where
// it was, so the elements then keep their order.
func (p *printer) signatureFirst(sp *ast.SubjectPattern) []ast.Pattern {
	els := sp.Elements
	agent := false
	for _, l := range sp.Labels {
		agent = agent || l.Name == "Agent"
	}
	if !agent || len(els) < 2 {
		return els
	}
	for i, e := range els {
		switch e.(type) {
		case *ast.RelationshipPattern, *ast.NodePattern:
		default:
			continue
		}
		if i == 0 || p.commentsBetween(startOf(sp), endOf(sp)) {
			return els
		}
		out := make([]ast.Pattern, 0, len(els))
		out = append(out, els[i])
		out = append(out, els[:i]...)
		return append(out, els[i+1:]...)
	}
	return els
}

// commentsBetween reports whether a comment not yet printed starts in
// [start, end).
func (p *printer) commentsBetween(start, end int) bool {
	for i := p.next; i < len(p.comments); i++ {
		off := startOf(p.comments[i])
		if off >= end {
			return false
		}
		if off >= start {
			return true
		}
	}
	return false
}

// inlineElements reports whether sp's elements stay on the line of its
// subject (see Format).
func (p *printer) inlineElements(sp *ast.SubjectPattern) bool {
	if len(sp.Elements) != 1 {
		return false
	}
	e := sp.Elements[0]
	if ap, ok := e.(*ast.AnnotatedPattern); ok {
		for _, a := range ap.Annotations {
			if _, ok := a.(*ast.PropertyAnnotation); ok {
				return false
			}
		}
		e = ap.Pattern
	}
	if _, ok := e.(*ast.RelationshipPattern); ok {
		return false
	}
	if p.trial {
		return true
	}
	if p.hasComments(sp) {
		return false
	}
	q := p.trialPrinter()
	if !sp.Subject.IsEmpty() {
		q.text(" ")
	}
	q.text("| ")
	q.pattern(sp.Elements[0], element)
	q.text("]")
	return !q.failed
}

func (p *printer) node(n *ast.NodePattern) {
	p.flush(startOf(n))
	p.text("(")
	p.opened(n)
	p.subject(&n.Subject, true)
	p.flush(endOf(n))
	p.text(")")
	p.done(n)
}

// subject prints an identifier, labels and record. In a node pattern
// (inNode) a single label is printed as a type label with "::".
func (p *printer) subject(s *ast.Subject, inNode bool) {
	if s.Identifier != nil {
		p.identifier(s.Identifier)
	}
	p.labels(s.Labels, inNode && len(s.Labels) == 1)
	if s.Record != nil {
		if s.Identifier != nil || len(s.Labels) > 0 {
			p.space()
		}
		p.record(s.Record)
	}
}

// path prints a chain of relationships iteratively (long paths must not
// recurse).
func (p *printer) path(r *ast.RelationshipPattern, ctx context) {
	broken := ctx == element && !p.trial && isSignature(r)
	if ctx == element && p.trial && isSignature(r) {
		p.failed = true
		return
	}
	for {
		if r.Left != nil {
			p.node(r.Left)
		}
		if r.Arrow != nil {
			p.arrow(r.Arrow)
		}
		if r.Right == nil {
			return
		}
		if broken {
			p.flush(startOf(r.Right))
			p.breakLine()
		}
		next, ok := r.Right.(*ast.RelationshipPattern)
		if !ok {
			p.pattern(r.Right, ctx)
			return
		}
		p.flush(startOf(next))
		r = next
	}
}

// isSignature reports whether r looks like a tool signature with two or
// more parameters: three or more nodes joined by right arrows that carry
// no subject.
func isSignature(r *ast.RelationshipPattern) bool {
	nodes := 1
	for {
		if r.Arrow == nil || r.Arrow.Kind != ast.RightArrow || r.Arrow.Subject != nil || r.Right == nil {
			return false
		}
		nodes++
		next, ok := r.Right.(*ast.RelationshipPattern)
		if !ok {
			return nodes >= 3
		}
		r = next
	}
}

// arrowParts returns the text of an arrow without a subject, and the
// texts before and after the brackets of one with a subject.
func arrowParts(k ast.ArrowKind, st ast.ArrowStyle) (whole, open, close string) {
	c := "-"
	switch st {
	case ast.DoubleArrow:
		c = "="
	case ast.SquiggleArrow:
		c = "~"
	}
	var lt, gt string
	if k == ast.LeftArrow || k == ast.BidirectionalArrow {
		lt = "<"
	}
	if k == ast.RightArrow || k == ast.BidirectionalArrow {
		gt = ">"
	}
	return lt + c + c + gt, lt + c + "[", "]" + c + gt
}

// arrowTexts caches arrowParts for every kind and style.
var arrowTexts = func() (t [4][3][3]string) {
	for k := range t {
		for st := range t[k] {
			w, o, c := arrowParts(ast.ArrowKind(k), ast.ArrowStyle(st))
			t[k][st] = [3]string{w, o, c}
		}
	}
	return t
}()

func (p *printer) arrow(a *ast.Arrow) {
	p.flush(startOf(a))
	var t [3]string
	if k, st := int(a.Kind), int(a.Style); k >= 0 && k < len(arrowTexts) && st >= 0 && st < len(arrowTexts[k]) {
		t = arrowTexts[k][st]
	} else {
		w, o, c := arrowParts(a.Kind, a.Style)
		t = [3]string{w, o, c}
	}
	if a.Subject == nil {
		p.text(t[0])
		p.done(a)
		return
	}
	p.text(t[1])
	p.opened(a)
	p.subject(a.Subject, false)
	p.flush(endOf(a))
	p.text(t[2])
	p.done(a)
}

func (p *printer) annotated(ap *ast.AnnotatedPattern, ctx context) {
	for i, a := range ap.Annotations {
		p.flush(startOf(a))
		switch a := a.(type) {
		case *ast.PropertyAnnotation:
			p.text("@")
			p.opened(a)
			if a.Key != nil {
				p.flush(startOf(a.Key))
				p.text(QuoteName(a.Key.Name))
				p.done(a.Key)
			}
			p.text("(")
			p.value(a.Value)
			p.flush(endOf(a))
			p.text(")")
			p.done(a)
			var next ast.Node = ap.Pattern
			if i+1 < len(ap.Annotations) {
				next = ap.Annotations[i+1]
			}
			if p.trial {
				p.failed = true
				return
			}
			p.flushTrailing(startOf(next))
			p.breakLine()
		case *ast.IdentifiedAnnotation:
			p.text("@@")
			p.opened(a)
			if a.Identifier != nil {
				p.identifier(a.Identifier)
			}
			p.labels(a.Labels, false)
			p.done(a)
			p.space()
		}
	}
	p.pattern(ap.Pattern, ctx)
}

func (p *printer) identifier(id *ast.Identifier) {
	if id == nil {
		return
	}
	p.flush(startOf(id))
	if id.Kind == ast.IntegerIdentifier {
		p.text(id.Name)
	} else {
		p.name(id.Name, id.Kind == ast.QuotedIdentifier)
	}
	p.done(id)
}

// name prints an identifier's, a label's or a key's name: in backticks
// when it was quoted, else as QuoteName writes it.
func (p *printer) name(name string, quoted bool) {
	if quoted {
		p.text(Quote(name, '`'))
	} else {
		p.text(QuoteName(name))
	}
}

func (p *printer) labels(ls []ast.Label, double bool) {
	for i := range ls {
		l := &ls[i]
		p.flush(startOf(l))
		if double {
			p.text("::")
		} else {
			p.text(":")
		}
		p.name(l.Name, l.Quoted)
		p.done(l)
	}
}

func (p *printer) key(k *ast.Key) {
	if k == nil {
		return
	}
	p.flush(startOf(k))
	if k.Kind == ast.DoubleQuotedKey {
		p.text(Quote(k.Name, '"'))
	} else {
		p.name(k.Name, k.Kind == ast.QuotedKey)
	}
	p.done(k)
}

// record prints a record, flat or one property per line (see Format).
func (p *printer) record(r *ast.Record) {
	p.flush(startOf(r))
	p.braces(r)
}

// braceCount returns the number of items of a record or map.
func braceCount(n ast.Node) int {
	switch n := n.(type) {
	case *ast.Record:
		return len(n.Properties)
	case *ast.Map:
		return len(n.Entries)
	}
	return 0
}

// braceItem returns item i of a record or map.
func braceItem(n ast.Node, i int) ast.Node {
	if r, ok := n.(*ast.Record); ok {
		return &r.Properties[i]
	}
	return &n.(*ast.Map).Entries[i]
}

// item prints item i of a record or map: `key: value`.
func (p *printer) item(n ast.Node, i int) {
	switch it := braceItem(n, i).(type) {
	case *ast.Property:
		p.flush(startOf(it))
		p.key(&it.Key)
		if it.DoubleColon {
			p.text(":: ")
		} else {
			p.text(": ")
		}
		p.value(it.Value)
		p.done(it)
	case *ast.MapEntry:
		p.flush(startOf(it))
		p.key(&it.Key)
		p.text(": ")
		p.value(it.Value)
		p.done(it)
	}
}

// flatBraces prints a record or map on one line.
func (p *printer) flatBraces(n ast.Node) {
	p.text("{")
	p.opened(n)
	for i, count := 0, braceCount(n); i < count; i++ {
		if i > 0 {
			p.text(", ")
		}
		p.item(n, i)
	}
	p.flush(endOf(n))
	p.text("}")
	p.done(n)
}

// braces prints a record or map, flat when it fits on the line and holds
// no comment, else one item per line.
func (p *printer) braces(n ast.Node) {
	count := braceCount(n)
	if p.trial || !p.hasComments(n) && (count == 0 || p.fitsBraces(n)) {
		p.flatBraces(n)
		return
	}
	p.text("{")
	p.opened(n)
	p.indent++
	for i := 0; i < count; i++ {
		if i > 0 {
			p.text(",")
		}
		// End-of-line comments of the previous line go before the break.
		p.flush(startOf(braceItem(n, i)))
		p.breakLine()
		p.item(n, i)
	}
	p.flush(endOf(n))
	p.indent--
	p.breakLine()
	p.text("}")
	p.done(n)
}

func (p *printer) value(v ast.Value) {
	if p.failed || v == nil {
		return
	}
	p.flush(startOf(v))
	switch v := v.(type) {
	case *ast.Number:
		p.text(v.Raw())
	case *ast.RangeValue:
		switch {
		case v.Lower != nil && v.Upper != nil:
			p.value(v.Lower)
			p.text("..")
			p.value(v.Upper)
		case v.Lower != nil:
			p.value(v.Lower)
			p.text("...")
		case v.Upper != nil:
			p.text("...")
			p.value(v.Upper)
		}
	case *ast.Boolean:
		if v.Value {
			p.text("true")
		} else {
			p.text("false")
		}
	case *ast.String:
		p.text(stringText(v))
	case *ast.TaggedString:
		p.text(taggedText(v))
	case *ast.Symbol:
		p.text(v.Name)
	case *ast.Array:
		if !p.trial && p.hasComments(v) {
			p.brokenArray(v)
			break
		}
		p.text("[")
		p.opened(v)
		for i, e := range v.Elements {
			if i > 0 {
				p.text(", ")
			}
			p.value(e)
		}
		p.flush(endOf(v))
		p.text("]")
	case *ast.Map:
		p.braces(v)
	}
	p.done(v)
}

// brokenArray prints an array that holds a comment one element per line,
// indented, as braces does for records and maps, so each comment stays
// beside its element.
func (p *printer) brokenArray(a *ast.Array) {
	p.text("[")
	p.opened(a)
	p.indent++
	for i, e := range a.Elements {
		if i > 0 {
			p.text(",")
		}
		// End-of-line comments of the previous line go before the break.
		p.flush(startOf(e))
		p.breakLine()
		p.value(e)
	}
	p.flush(endOf(a))
	p.indent--
	p.breakLine()
	p.text("]")
}

// stringText returns the source text of s: Raw, or when a tree was built
// by hand without it, a quoted form of Value.
func stringText(s *ast.String) string {
	if s.Raw() != "" {
		return s.Raw()
	}
	switch s.Kind {
	case ast.SingleQuoted:
		return Quote(s.Value, '\'')
	case ast.Backticked:
		return Quote(s.Value, '`')
	case ast.Fenced:
		return fence("", s.Value)
	}
	return Quote(s.Value, '"')
}

func taggedText(t *ast.TaggedString) string {
	if t.Raw() != "" {
		return t.Raw()
	}
	if t.Fenced {
		return fence(t.Tag, t.Value)
	}
	return t.Tag + Quote(t.Value, '`')
}

func fence(tag, content string) string {
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	return "```" + tag + "\n" + content + "```"
}

// Quote returns s between q quotes (', " or `) with gram's escapes, as
// the formatter prints it and as diagnostics suggest it.
func Quote(s string, q byte) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c == q {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// QuoteName returns name as gram writes a name (an identifier, label or
// key): as it is when it is a plain symbol, else backtick-quoted.
func QuoteName(name string) string {
	if IsSymbol(name) {
		return name
	}
	return Quote(name, '`')
}

// IsSymbol reports whether s is a gram symbol: [a-zA-Z_][0-9a-zA-Z_.\-@]*.
func IsSymbol(s string) bool {
	if s == "" || !isSymbolStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isSymbolChar(s[i]) {
			return false
		}
	}
	return true
}
