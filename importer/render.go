package importer

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/internal/termsafe"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

// writer writes the package as gram text.
type writer struct {
	b strings.Builder
}

// write names the declarations, drops what the checker would refuse of
// their values (validate), and writes and formats the package once. It
// returns the formatted text and the checker's warnings of what is
// written, placed in the sources.
func (im *importer) write(srcs []Source, kinds []string) ([]byte, diag.Diagnostics, error) {
	im.prune()
	im.name()
	warnings := im.validate()
	w := &writer{}
	w.b.WriteString("// Imported by gramc import from " + describeSources(srcs, kinds) + ".\n")
	w.pkg(&im.pkg, im.decls)
	f, ds := syntax.ParseString("imported.gram", w.b.String())
	if ds.HasErrors() {
		return nil, nil, fmt.Errorf("gramc import wrote gram that does not parse (a bug; please report it): %s", ds.Errors()[0].Error())
	}
	return syntax.Format(f), append(warnings, im.placeParsed(f, ds)...), nil
}

// placeParsed places the parse's warnings of the gram written in the
// sources. A package written has one kind only, unsafe-character: a value
// kept as the wire value (an enum value, a default) holds a control or
// bidirectional character, which the scanner warns of in the text (its
// rule, applied once to the text as written). Each is said at the source
// of the property of the parameter or field it is in, else of the
// declaration; one outside the declarations (the header's file names) is
// not the package's.
func (im *importer) placeParsed(f *ast.File, ds diag.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		off := int(d.Range.Start.Offset)
		i := sort.Search(len(f.Patterns), func(i int) bool { _, end := f.Patterns[i].Offsets(); return end > off })
		if i == len(f.Patterns) {
			continue
		}
		if start, _ := f.Patterns[i].Offsets(); off < start {
			continue
		}
		var src *source
		var at *node
		var params []*param
		var nodes []*ast.NodePattern
		sp, _ := f.Patterns[i].(*ast.SubjectPattern)
		if sp == nil {
			continue
		}
		switch {
		case i < len(im.pkg.tools):
			t := im.pkg.tools[i]
			src, at, params = t.src, t.at, t.params
			if len(sp.Elements) == 1 {
				nodes = pathNodes(sp.Elements[0])
			}
		default:
			switch decl := im.decls[i-len(im.pkg.tools)].(type) {
			case *record:
				src, at, params = decl.src, decl.at, decl.fields
				for _, e := range sp.Elements {
					if n, ok := e.(*ast.NodePattern); ok {
						nodes = append(nodes, n)
					}
				}
			case *enum:
				src, at = decl.src, decl.at
			}
		}
		for j, n := range nodes {
			if start, end := n.Offsets(); j < len(params) && start <= off && off < end {
				p := params[j]
				src, at = p.src, p.at
				if n.Record != nil {
					for _, q := range n.Record.Properties {
						if start, end := q.Offsets(); start <= off && off < end {
							at = p.propNode(q.Key.Name)
						}
					}
				}
			}
		}
		if src == nil {
			continue
		}
		out = append(out, &diag.Diagnostic{Severity: diag.Warning, Code: d.Code, Summary: d.Summary, Detail: d.Detail, Range: src.at(at)})
	}
	return out
}

// pathNodes are the nodes of a signature, in order.
func pathNodes(p ast.Pattern) []*ast.NodePattern {
	var nodes []*ast.NodePattern
	for p != nil {
		switch q := p.(type) {
		case *ast.NodePattern:
			return append(nodes, q)
		case *ast.RelationshipPattern:
			nodes = append(nodes, q.Left)
			p = q.Right
		default:
			return nodes
		}
	}
	return nodes
}

// maxSourceName bounds a source's name in the header comment.
const maxSourceName = 200

// describeSources names the sources for the header comment, each on one
// line with every control and bidirectional character escaped (a file or
// server name is the user's, not the document's, but a comment must not
// reorder or hide what a reader of the gram sees).
func describeSources(srcs []Source, kinds []string) string {
	var parts []string
	for i, s := range srcs {
		name := s.Name
		if s.Server {
			name = "the MCP server " + serverName(name)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", termsafe.Line(name, maxSourceName), kinds[i]))
	}
	return strings.Join(parts, ", ")
}

// serverName is a server as the output may name it: a URL without its
// query, fragment or user information (which can hold a token).
func serverName(s string) string {
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
		u.User, u.RawQuery, u.Fragment = nil, "", ""
		return u.String()
	}
	return s
}

func (w *writer) pkg(p *pkg, decls []any) {
	for _, t := range p.tools {
		w.b.WriteString("\n")
		w.tool(t)
	}
	for _, d := range decls {
		w.b.WriteString("\n")
		switch d := d.(type) {
		case *record:
			w.record(d)
		case *enum:
			w.enum(d)
		}
	}
}

func (w *writer) tool(t *tool) {
	w.b.WriteString("[" + syntax.QuoteName(t.name) + ":Tool {description: " + str(t.description))
	if t.title != "" {
		w.b.WriteString(", title: " + str(t.title))
	}
	if t.strict != nil {
		fmt.Fprintf(&w.b, ", strict: %t", *t.strict)
	}
	if t.deprecated {
		w.b.WriteString(", deprecated: true")
	}
	w.b.WriteString("} |\n  ")
	for _, p := range t.params {
		w.param(p)
		w.b.WriteString("==>\n  ")
	}
	w.b.WriteString("(::" + label(t.result))
	var props []string
	if t.result.kind == check.Array {
		props = append(props, "elementType: "+elementType(t.result.elem))
	}
	if t.resultDescription != "" {
		props = append(props, "description: "+str(t.resultDescription))
	}
	if len(props) > 0 {
		w.b.WriteString(" {" + strings.Join(props, ", ") + "}")
	}
	w.b.WriteString(")\n]\n")
}

func (w *writer) record(r *record) {
	w.b.WriteString("[" + syntax.QuoteName(r.name) + ":Type")
	if r.description != "" {
		w.b.WriteString(" {description: " + str(r.description) + "}")
	}
	if len(r.fields) > 0 {
		w.b.WriteString(" |\n")
		for i, f := range r.fields {
			w.b.WriteString("  ")
			w.param(f)
			if i < len(r.fields)-1 {
				w.b.WriteString(",")
			}
			w.b.WriteString("\n")
		}
	}
	w.b.WriteString("]\n")
}

func (w *writer) enum(e *enum) {
	w.b.WriteString("[" + syntax.QuoteName(e.name) + ":Enum {values: " + value(e.values))
	if e.description != "" {
		w.b.WriteString(", description: " + str(e.description))
	}
	w.b.WriteString("}]\n")
}

// param writes (name::Type {properties}).
func (w *writer) param(p *param) {
	w.b.WriteString("(" + syntax.QuoteName(p.name) + "::" + label(p.typ))
	first := true
	prop := func(key, text string) {
		if first {
			w.b.WriteString(" {")
			first = false
		} else {
			w.b.WriteString(", ")
		}
		w.b.WriteString(key + ": " + text)
	}
	if p.typ.kind == check.Array {
		prop("elementType", elementType(p.typ.elem))
	}
	if p.description != "" {
		prop("description", str(p.description))
	}
	if p.hasDef {
		prop("default", value(p.def))
	} else if p.optional {
		prop("optional", "true")
	}
	c := &p.c
	if c.Enum != nil {
		prop("enum", value(c.Enum))
	}
	for _, b := range bounds(c) {
		if *b.to != nil {
			prop(b.key, string(**b.to))
		}
	}
	propSizes := func(kind check.Kind) {
		for _, s := range sizes(c) {
			if s.kind == kind && *s.to != nil {
				prop(s.key, fmt.Sprint(**s.to))
			}
		}
	}
	propSizes(check.String) // lengths
	if c.Pattern != "" {
		prop("pattern", str(c.Pattern))
	}
	if c.Format != "" {
		prop("format", str(c.Format))
	}
	propSizes(check.Array) // item counts
	if c.UniqueItems {
		prop("uniqueItems", "true")
	}
	if len(p.examples) > 0 {
		prop("examples", value(p.examples))
	}
	if p.deprecated {
		prop("deprecated", "true")
	}
	if !first {
		w.b.WriteString("}")
	}
	w.b.WriteString(")")
}

// label is a type's label in a node.
func label(t *typ) string {
	switch t.kind {
	case check.Record:
		return syntax.QuoteName(t.rec.name)
	case check.EnumKind:
		return syntax.QuoteName(t.enum.name)
	}
	return t.kind.String()
}

// elementType is an array's elementType value: a symbol, or a string for
// a name that is not one.
func elementType(t *typ) string {
	if t == nil {
		return "Object"
	}
	name := label(t)
	if t.kind == check.Record || t.kind == check.EnumKind {
		name = t.Name()
	}
	if syntax.IsSymbol(name) {
		return name
	}
	return str(name)
}

// Name is the declared name of a record or enum type.
func (t *typ) Name() string {
	switch t.kind {
	case check.Record:
		return t.rec.name
	case check.EnumKind:
		return t.enum.name
	}
	return t.kind.String()
}

func str(s string) string { return syntax.Quote(s, '"') }

// value writes a JSON-ready value as a gram value.
func value(v any) string {
	switch v := v.(type) {
	case string:
		return str(v)
	case json.Number:
		return string(v)
	case bool:
		return fmt.Sprint(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = value(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			key := k
			if !syntax.IsSymbol(k) {
				key = str(k)
			}
			parts[i] = key + ": " + value(v[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "null"
}
