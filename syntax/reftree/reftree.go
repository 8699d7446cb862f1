// Package reftree prints gram syntax trees (package ast) in the reference
// parser's vocabulary: tree-sitter-gram's node and field names, as the
// conformance corpus records them (Sexp) and with positions (Tree, JSON,
// WriteJSON for `gramc parse --json`). It reads trees only; parsing is
// package syntax.
//
// An empty quoted string, quoted name or tagged string still has a
// zero-width string_content (the reference's text token matches the empty
// string); a fenced string's string_content starts after the line breaks
// that directly follow the header (the reference's line-break token takes
// them all) and is absent when nothing but white space is left.
package reftree

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/syntax/internal/lexical"
)

// TreeNode is a node of the concrete syntax tree in the reference grammar's
// vocabulary (tree-sitter-gram node and field names). Sexp and JSON print
// it; it is built from an ast.File by Tree.
type TreeNode struct {
	Type  string  `json:"type"`
	Field string  `json:"field,omitempty"`
	Start ast.Pos `json:"-"`
	End   ast.Pos `json:"-"`
	Text  string  `json:"text,omitempty"` // leaves: the source text
	// Name is a label's name without its ":" or "::" (a label's text
	// keeps them, as the reference tree's span does).
	Name     string      `json:"name,omitempty"`
	Children []*TreeNode `json:"children,omitempty"`
}

// Tree converts f to the reference grammar's concrete tree, with comments
// placed where tree-sitter places them: in the innermost node whose first
// and last tokens surround the comment.
func Tree(f *ast.File) *TreeNode {
	root := &TreeNode{Type: "gram_pattern", Start: f.Pos(), End: f.End()}
	if f.Header != nil {
		root.add("root", record(f.Header))
	}
	for _, p := range f.Patterns {
		root.add("", pattern(p))
	}
	for _, c := range f.Comments {
		root.insertComment(&TreeNode{Type: "comment", Start: c.Pos(), End: c.End(), Text: c.Text})
	}
	return root
}

// Sexp prints f as the reference parser's S-expression on one line, e.g.
// `(gram_pattern (node_pattern identifier: (symbol)))`.
func Sexp(f *ast.File) string {
	var b strings.Builder
	Tree(f).writeSexp(&b)
	return b.String()
}

// JSON prints f's concrete tree (see TreeNode) as indented JSON.
func JSON(f *ast.File) ([]byte, error) {
	var b bytes.Buffer
	err := WriteJSON(&b, f, "")
	return b.Bytes(), err
}

// WriteJSON writes f's concrete tree to w as indented JSON, each line
// starting with prefix: {"type": "gram_pattern", "start", "end",
// "children": [...]}. Every leaf carries its source text ("text"). The tree
// is built and written one top-level pattern at a time, so memory stays
// proportional to the largest pattern, not to the file.
func WriteJSON(w io.Writer, f *ast.File, prefix string) error {
	bw := bufio.NewWriter(w)
	jw := &treeWriter{w: bw, src: f.Source()}
	root := &TreeNode{Type: "gram_pattern", Start: f.Pos(), End: f.End()}
	// The root's own fields, then its children streamed.
	jw.open(root, prefix, f.Header == nil && len(f.Patterns) == 0 && len(f.Comments) == 0)
	var children []*TreeNode
	if f.Header != nil {
		children = append(children, fieldNode("root", record(f.Header)))
	}
	comments := f.Comments
	first := true
	emit := func(n *TreeNode) {
		if first {
			bw.WriteString(",\n" + prefix + "  \"children\": [\n")
			first = false
		} else {
			bw.WriteString(",\n")
		}
		jw.node(n, prefix+"    ")
	}
	flush := func(upTo int32) {
		// Comments before offset upTo that sit between patterns.
		for len(comments) > 0 && comments[0].Pos().Offset < upTo {
			c := comments[0]
			comments = comments[1:]
			emit(&TreeNode{Type: "comment", Start: c.Pos(), End: c.End(), Text: c.Text})
		}
	}
	place := func(n *TreeNode) {
		flush(n.Start.Offset)
		// Comments inside the pattern go into it.
		for len(comments) > 0 && comments[0].Pos().Offset < n.End.Offset {
			c := comments[0]
			comments = comments[1:]
			n.insertComment(&TreeNode{Type: "comment", Start: c.Pos(), End: c.End(), Text: c.Text})
		}
		emit(n)
	}
	for _, c := range children {
		place(c)
	}
	for _, p := range f.Patterns {
		if n := pattern(p); n != nil {
			place(n)
		}
	}
	flush(math.MaxInt32)
	if !first {
		bw.WriteString("\n" + prefix + "  ]")
	}
	bw.WriteString("\n" + prefix + "}")
	return bw.Flush()
}

func fieldNode(field string, n *TreeNode) *TreeNode {
	if n != nil {
		n.Field = field
	}
	return n
}

// treeWriter writes TreeNodes as indented JSON.
type treeWriter struct {
	w   *bufio.Writer
	src *ast.Source
}

// open writes n's opening brace and fields but not its children or its
// closing brace. A leaf carries its source text.
func (t *treeWriter) open(n *TreeNode, indent string, leaf bool) {
	w := t.w
	w.WriteString("{\n")
	t.field(indent, "type", n.Type)
	if n.Field != "" {
		w.WriteString(",\n")
		t.field(indent, "field", n.Field)
	}
	text := n.Text
	if text == "" && leaf && t.src != nil {
		s, e := int(n.Start.Offset), int(n.End.Offset)
		if all := t.src.Text(); 0 <= s && s <= e && e <= len(all) {
			text = all[s:e]
		}
	}
	if text != "" {
		w.WriteString(",\n")
		t.field(indent, "text", text)
	}
	if n.Name != "" {
		w.WriteString(",\n")
		t.field(indent, "name", n.Name)
	}
	for _, p := range []struct {
		name string
		pos  ast.Pos
	}{{"start", n.Start}, {"end", n.End}} {
		w.WriteString(",\n" + indent + "  \"" + p.name + "\": {\n")
		w.WriteString(indent + "    \"offset\": " + strconv.Itoa(int(p.pos.Offset)) + ",\n")
		w.WriteString(indent + "    \"line\": " + strconv.Itoa(int(p.pos.Line)) + ",\n")
		w.WriteString(indent + "    \"column\": " + strconv.Itoa(int(p.pos.Column)) + "\n")
		w.WriteString(indent + "  }")
	}
}

func (t *treeWriter) field(indent, name, value string) {
	b, _ := json.Marshal(value)
	t.w.WriteString(indent + "  \"" + name + "\": ")
	t.w.Write(b)
}

// node writes n and its children, the first line unindented (the caller
// placed it), the rest at indent.
func (t *treeWriter) node(n *TreeNode, indent string) {
	t.w.WriteString(indent)
	t.open(n, indent, len(n.Children) == 0)
	if len(n.Children) > 0 {
		t.w.WriteString(",\n" + indent + "  \"children\": [\n")
		for i, c := range n.Children {
			t.node(c, indent+"    ")
			if i < len(n.Children)-1 {
				t.w.WriteByte(',')
			}
			t.w.WriteByte('\n')
		}
		t.w.WriteString(indent + "  ]")
	}
	t.w.WriteString("\n" + indent + "}")
}

type jsonPos struct {
	Offset int `json:"offset"`
	Line   int `json:"line"`
	Column int `json:"column"`
}

func toJSONPos(p ast.Pos) jsonPos {
	return jsonPos{Offset: int(p.Offset), Line: int(p.Line), Column: int(p.Column)}
}

// MarshalJSON encodes the node with its positions as
// {"offset", "line", "column"} objects.
func (n *TreeNode) MarshalJSON() ([]byte, error) {
	type plain TreeNode
	return json.Marshal(struct {
		*plain
		Start jsonPos `json:"start"`
		End   jsonPos `json:"end"`
	}{(*plain)(n), toJSONPos(n.Start), toJSONPos(n.End)})
}

func (n *TreeNode) writeSexp(b *strings.Builder) {
	b.WriteByte('(')
	b.WriteString(n.Type)
	for _, c := range n.Children {
		b.WriteByte(' ')
		if c.Field != "" {
			b.WriteString(c.Field)
			b.WriteString(": ")
		}
		c.writeSexp(b)
	}
	b.WriteByte(')')
}

func (n *TreeNode) add(field string, c *TreeNode) {
	if c == nil {
		return
	}
	c.Field = field
	n.Children = append(n.Children, c)
}

func (n *TreeNode) insertComment(c *TreeNode) {
	off := c.Start.Offset
	at := len(n.Children)
	for i, ch := range n.Children {
		if ch.Start.Offset <= off && off < ch.End.Offset && !isToken(ch.Type) {
			ch.insertComment(c)
			return
		}
		if ch.Start.Offset > off {
			at = i
			break
		}
	}
	n.Children = append(n.Children, nil)
	copy(n.Children[at+1:], n.Children[at:])
	n.Children[at] = c
}

// isToken reports whether nodes of type typ are single tokens, which a
// comment can never be inside (gramc rejects comments between a tag and
// its string and in a fence's header).
func isToken(typ string) bool {
	switch typ {
	case "comment", "string_literal", "quoted_name", "double_quoted_name", "tagged_string", "string_content",
		"symbol", "integer", "decimal", "hexadecimal", "octal", "measurement", "boolean_literal":
		return true
	}
	return false
}

func node(typ string, x ast.Node) *TreeNode {
	return &TreeNode{Type: typ, Start: x.Pos(), End: x.End()}
}

func spanNode(typ string, start, end ast.Pos) *TreeNode {
	return &TreeNode{Type: typ, Start: start, End: end}
}

// list is a node of type typ spanning items, a child for each.
func list[T ast.Node](typ string, items []T, child func(T) *TreeNode) *TreeNode {
	l := spanNode(typ, items[0].Pos(), items[len(items)-1].End())
	for _, it := range items {
		l.add("", child(it))
	}
	return l
}

func pattern(p ast.Pattern) *TreeNode {
	if ast.Missing(p) {
		return nil
	}
	switch p := p.(type) {
	case *ast.SubjectPattern:
		n := node("subject_pattern", p)
		subject(n, &p.Subject)
		if len(p.Elements) > 0 {
			n.add("elements", list("subject_pattern_elements", p.Elements, pattern))
		}
		return n
	case *ast.NodePattern:
		n := node("node_pattern", p)
		subject(n, &p.Subject)
		return n
	case *ast.RelationshipPattern:
		n := node("relationship_pattern", p)
		if p.Left != nil {
			n.add("left", pattern(p.Left))
		}
		if p.Arrow != nil {
			a := node(p.Arrow.Kind.String(), p.Arrow)
			if p.Arrow.Subject != nil {
				subject(a, p.Arrow.Subject)
			}
			n.add("kind", a)
		}
		n.add("right", pattern(p.Right))
		return n
	case *ast.AnnotatedPattern:
		n := node("annotated_pattern", p)
		if len(p.Annotations) > 0 {
			n.add("annotations", list("annotations", p.Annotations, annotation))
		}
		n.add("elements", pattern(p.Pattern))
		return n
	case *ast.PatternReference:
		n := node("pattern_reference", p)
		n.add("identifier", identifier(p.Identifier))
		return n
	}
	return nil
}

func annotation(a ast.Annotation) *TreeNode {
	switch a := a.(type) {
	case *ast.PropertyAnnotation:
		n := node("property_annotation", a)
		if a.Key != nil {
			n.add("key", node("symbol", a.Key))
		}
		n.add("value", value(a.Value))
		return n
	case *ast.IdentifiedAnnotation:
		n := node("identified_annotation", a)
		if a.Identifier != nil {
			n.add("identifier", identifier(a.Identifier))
		}
		if len(a.Labels) > 0 {
			n.add("labels", labels(a.Labels))
		}
		return n
	}
	return nil
}

func subject(n *TreeNode, s *ast.Subject) {
	if s.Identifier != nil {
		n.add("identifier", identifier(s.Identifier))
	}
	if len(s.Labels) > 0 {
		n.add("labels", labels(s.Labels))
	}
	if s.Record != nil {
		n.add("record", record(s.Record))
	}
}

func identifier(id *ast.Identifier) *TreeNode {
	if id == nil {
		return nil
	}
	switch id.Kind {
	case ast.QuotedIdentifier:
		return quoted("quoted_name", id, id.Name, sourceText(id))
	case ast.IntegerIdentifier:
		return node("integer", id)
	}
	return node("symbol", id)
}

// sourceText returns the source text of a parsed node ("" for a node built
// by hand).
func sourceText(n interface {
	Source() *ast.Source
	Offsets() (int, int)
}) string {
	if n.Source() == nil {
		return ""
	}
	start, end := n.Offsets()
	return n.Source().Text()[start:end]
}

// quoted is a quoted name with its string_content child, which is present
// (zero-width) even when the name is empty: the reference grammar's text
// token matches the empty string. raw is the quoted name's source text, if
// known; else its length is worked out from the decoded content.
func quoted(typ string, x ast.Node, content, raw string) *TreeNode {
	n := node(typ, x)
	start, end := x.Pos(), x.End()
	start.Offset++
	start.Column++
	if raw != "" {
		// The text ends at the closing quote or at a line break (white
		// space may stand between it and the closing quote).
		end = advancePos(start, lexical.QuotedText(raw))
	} else if end.Line != start.Line {
		// Whitespace stands between the text, which is on the first line,
		// and the closing quote.
		bytes, runes := quotedLen(content)
		end = start
		end.Offset += int32(bytes - 2)
		end.Column += int32(runes - 2)
	} else {
		end.Offset--
		end.Column--
	}
	n.add("content", spanNode("string_content", start, end))
	return n
}

func labels(ls []ast.Label) *TreeNode {
	n := node("labels", spanOf(ls[0].Pos(), ls[len(ls)-1].End()))
	for i := range ls {
		l := &ls[i]
		if text := sourceText(l); l.Quoted && text != "" {
			// The label's span includes its ":" or "::" and any space
			// or comment after it.
			off := 1
			if strings.HasPrefix(text, "::") {
				off = 2
			}
			off = lexical.SkipSpace(text, off)
			lstart, _ := l.Offsets()
			start := l.Source().Position(lstart + off)
			n.add("", quoted("quoted_name", spanOf(start, l.End()), l.Name, text[off:]))
		} else if l.Quoted {
			// A label built by hand: the quoted name is the backtick
			// string that ends the label, written as Quote writes it.
			bytes, runes := quotedLen(l.Name)
			start := l.End()
			start.Offset -= int32(bytes)
			start.Column -= int32(runes)
			if sep := l.Pos(); start.Column < 1 || start.Offset <= sep.Offset {
				// The name starts somewhere after the separator.
				start = sep
				start.Offset++
				start.Column++
			}
			n.add("", quoted("quoted_name", spanOf(start, l.End()), l.Name, ""))
		} else {
			sym := spanNode("symbol", l.Pos(), l.End())
			sym.Name = l.Name
			n.add("", sym)
		}
	}
	return n
}

// quotedLen is the length in bytes and runes of the backtick string that
// decodes to name, written with the escapes the parser accepts (a "/" is
// assumed to have been written unescaped).
func quotedLen(name string) (bytes, runes int) {
	bytes, runes = len(name)+2, lexical.RuneCount(name)+2
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '`', '\\', '\b', '\f', '\n', '\r', '\t':
			bytes++
			runes++
		}
	}
	return bytes, runes
}

// spanned is a piece of a node (a string's content, a symbol's name) that
// the reference tree shows as a node of its own.
type spanned struct{ start, end ast.Pos }

func (s spanned) Pos() ast.Pos        { return s.start }
func (s spanned) End() ast.Pos        { return s.end }
func (s spanned) Offsets() (int, int) { return int(s.start.Offset), int(s.end.Offset) }

func spanOf(start, end ast.Pos) spanned { return spanned{start, end} }

// record is r's node; value's *ast.Map case lists a map's entries the
// same way (two node types of tree-sitter-gram, one shape: entry).
func record(r *ast.Record) *TreeNode {
	n := node("record", r)
	for i := range r.Properties {
		p := &r.Properties[i]
		n.add("", entry("record_property", p, &p.Key, p.Value))
	}
	return n
}

// entry is the node of type typ of one `key: value` of a record or a map,
// x being the property or entry that holds k and v.
func entry(typ string, x ast.Node, k *ast.Key, v ast.Value) *TreeNode {
	n := node(typ, x)
	n.add("key", keyNode(k))
	n.add("value", value(v))
	return n
}

// keyNode is k's node. Parallel to identifier: the grammar's two name
// rules, each a kind to a node type; kept apart because their kinds differ
// (a key may be double-quoted, an identifier an integer).
func keyNode(k *ast.Key) *TreeNode {
	if k == nil {
		return nil
	}
	switch k.Kind {
	case ast.QuotedKey:
		return quoted("quoted_name", k, k.Name, sourceText(k))
	case ast.DoubleQuotedKey:
		return quoted("double_quoted_name", k, k.Name, sourceText(k))
	}
	return node("symbol", k)
}

func value(v ast.Value) *TreeNode {
	switch v := v.(type) {
	case *ast.Number:
		return node(v.Kind.String(), v)
	case *ast.RangeValue:
		n := node("range", v)
		if v.Lower != nil {
			n.add("lower", node(v.Lower.Kind.String(), v.Lower))
		}
		if v.Upper != nil {
			n.add("upper", node(v.Upper.Kind.String(), v.Upper))
		}
		return n
	case *ast.Boolean:
		return node("boolean_literal", v)
	case *ast.Symbol:
		return node("symbol", v)
	case *ast.String:
		n := node("string_literal", v)
		n.add("content", contentNode(v, v.Raw(), v.Kind == ast.Fenced))
		return n
	case *ast.TaggedString:
		n := node("tagged_string", v)
		start := v.Pos()
		if v.Fenced {
			// The tag follows the fence and any space before it (ASCII,
			// on the fence's line).
			tagEnd, _ := lexical.FenceHeader(v.Raw(), 0)
			d := int32(tagEnd - len(v.Tag))
			start.Offset += d
			start.Column += d
		}
		end := start
		end.Offset += int32(len(v.Tag))
		end.Column += int32(len(v.Tag))
		n.add("tag", spanNode("symbol", start, end))
		n.add("content", contentNode(v, v.Raw(), v.Fenced))
		return n
	case *ast.Array:
		n := node("array", v)
		for _, e := range v.Elements {
			n.add("", value(e))
		}
		return n
	case *ast.Map: // as record does a record
		n := node("map", v)
		for i := range v.Entries {
			e := &v.Entries[i]
			n.add("", entry("map_entry", e, &e.Key, e.Value))
		}
		return n
	}
	return nil
}

// contentNode is the string_content of a string literal as tree-sitter
// lexes it: the text between the quotes, present (zero-width) even when
// empty; for a fenced string the text from the end of the line-break token
// that ends the header (which takes every line break that immediately
// follows it) to the closing fence, absent when that is empty or only white
// space (which the reference lexes as space before the closing fence).
func contentNode(x ast.Node, raw string, fenced bool) *TreeNode {
	start, end := x.Pos(), x.End()
	if fenced {
		nl := strings.IndexByte(raw, '\n')
		from := lexical.FenceContentStart(raw, nl)
		if strings.TrimLeft(raw[from:len(raw)-3], " \t\n\v\f\r") == "" {
			// Only white space before the closing fence: the reference
			// lexer reads it as space before the closing ``` token.
			return nil
		}
		start = advancePos(start, raw[:from])
		end.Offset -= 3
		end.Column -= 3
		return spanNode("string_content", start, end)
	}
	q := 0 // opening quote
	if raw[0] != raw[len(raw)-1] {
		_, q = lexical.TaggedSplit(raw) // after a tag and whitespace
	}
	start = advancePos(start, raw[:q+1])
	if nl := strings.IndexByte(raw[q+1:], '\n'); nl >= 0 {
		// Whitespace stands between the text and the closing quote.
		return spanNode("string_content", start, advancePos(start, raw[q+1:q+1+nl]))
	}
	end.Offset--
	end.Column--
	return spanNode("string_content", start, end)
}

// advancePos returns the position just after text that starts at p.
func advancePos(p ast.Pos, text string) ast.Pos {
	p.Offset += int32(len(text))
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		p.Line += int32(strings.Count(text, "\n"))
		p.Column = int32(1 + lexical.RuneCount(text[i+1:]))
		return p
	}
	p.Column += int32(lexical.RuneCount(text))
	return p
}
