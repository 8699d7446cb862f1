package importer

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/syntax"
)

// span is where a property of a parameter was written in the gram text,
// to drop it when the checker refuses it.
type span struct {
	start, end int
	p          *param
	key        string
}

// writer writes the package as gram text.
type writer struct {
	b     strings.Builder
	spans []span
}

// write names the declarations, writes the package and checks it: a
// property the checker refuses is dropped with a warning at its source,
// and the package written again, so the result always checks. It returns
// the formatted text and the checker's warnings, placed in the sources.
func (im *importer) write(srcs []Source, kinds []string) ([]byte, diag.Diagnostics, error) {
	im.prune()
	im.name()
	for _, t := range im.pkg.tools {
		for _, p := range t.params {
			im.refuse(p, false)
		}
	}
	for _, d := range im.decls {
		if r, ok := d.(*record); ok {
			for _, f := range r.fields {
				im.refuse(f, true)
			}
		}
	}
	header := "// Imported by gramc import from " + describeSources(srcs, kinds) + ".\n"
	const file = "imported.gram"
	for round := 0; ; round++ {
		w := &writer{}
		w.b.WriteString(header)
		w.pkg(&im.pkg, im.decls)
		text := w.b.String()
		f, ds := syntax.ParseString(file, text)
		if ds.HasErrors() {
			return nil, nil, fmt.Errorf("gramc import wrote gram that does not parse (a bug; please report it): %s", ds.Errors()[0].Error())
		}
		_, ds = check.CheckSources("", []check.SourceFile{{AST: f, Diags: ds}})
		var warnings diag.Diagnostics
		dropped := false
		for _, d := range ds {
			sp := w.at(int(d.Range.Start.Offset))
			if d.Severity != diag.Error {
				if sp == nil {
					continue
				}
				warnings = append(warnings, &diag.Diagnostic{Severity: diag.Warning, Code: d.Code, Summary: d.Summary, Detail: d.Detail, Range: sp.p.src.at(sp.p.propNode(sp.key))})
				continue
			}
			if sp == nil || round > 64 || !sp.p.has(sp.key) {
				return nil, nil, fmt.Errorf("gramc import wrote gram that does not check (a bug; please report it): %s", d.Error())
			}
			if im.dropRefused(sp.p, sp.key, d.Summary, d.Detail) {
				dropped = true
			}
		}
		if dropped {
			continue
		}
		return syntax.Format(f), warnings, nil
	}
}

// refuse drops, before the package is written, what the checker would
// refuse of p's constraints, default and examples (check.CheckParamValues),
// each with a warning at its source: the package written then checks
// without a second writing.
func (im *importer) refuse(p *param, field bool) {
	var t *check.Type
	switch p.typ.kind {
	case check.String, check.Integer, check.Number, check.Boolean:
		t = &check.Type{Kind: p.typ.kind}
	}
	if !p.hasDef && len(p.examples) == 0 && p.c.Pattern == "" && bounded(&p.c) < 2 {
		return // nothing to refuse: no value, pattern or pair of bounds
	}
	pv := check.ParamValues{Name: p.name, Field: field, Type: t, Constraints: &p.c, Default: p.def, HasDefault: p.hasDef, Examples: p.examples}
	for _, r := range check.CheckParamValues(pv) {
		im.dropRefused(p, r.Key, r.Summary, r.Detail)
	}
}

// dropRefused drops key of p, which the checker refuses saying summary
// and detail, with a warning at its source (once for a source value);
// false when it was gone already.
func (im *importer) dropRefused(p *param, key, summary, detail string) bool {
	if !p.drop(key) {
		return false
	}
	at := p.propNode(key)
	if im.refused[at] {
		return true // a field copied into a tool's parameters
	}
	im.refused[at] = true
	saved := im.s
	im.s = p.src
	im.warn(diag.CodeImportInvalidValue, at, fmt.Sprintf("%s of %s is dropped: %s", key, jsonstr.Text(p.name), summary),
		"gram refuses the value where it is written: "+strings.TrimSpace(detail))
	im.s = saved
	return true
}

// bounded counts c's bounds, lengths and item counts.
func bounded(c *check.Constraints) int {
	n := 0
	for _, b := range bounds(c) {
		if *b.to != nil {
			n++
		}
	}
	for _, s := range sizes(c) {
		if *s.to != nil {
			n++
		}
	}
	return n
}

func (p *param) propNode(key string) *node {
	if n := p.props[key]; n != nil {
		return n
	}
	return p.at
}

// has reports whether key is a property drop can remove.
func (p *param) has(key string) bool {
	switch key {
	case "description", "optional", "elementType", "deprecated":
		return false
	}
	return true
}

// drop removes a property the checker refused; false when it was gone.
func (p *param) drop(key string) bool {
	c := &p.c
	switch key {
	case "default":
		had := p.hasDef
		p.def, p.hasDef = nil, false
		return had
	case "examples":
		had := len(p.examples) > 0
		p.examples = nil
		return had
	case "enum":
		c.Enum = nil
	case "pattern":
		c.Pattern = ""
	case "format":
		c.Format = ""
	case "uniqueItems":
		c.UniqueItems = false
	default:
		for _, b := range bounds(c) {
			if b.key == key {
				*b.to = nil
				return true
			}
		}
		for _, s := range sizes(c) {
			if s.key == key {
				*s.to = nil
				return true
			}
		}
		return false
	}
	return true
}

// at is the span holding offset off.
func (w *writer) at(off int) *span {
	i := sort.Search(len(w.spans), func(i int) bool { return w.spans[i].end > off })
	if i < len(w.spans) && w.spans[i].start <= off {
		return &w.spans[i]
	}
	return nil
}

func describeSources(srcs []Source, kinds []string) string {
	var parts []string
	for i, s := range srcs {
		name := s.Name
		if s.Server {
			name = "the MCP server " + serverName(name)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", oneLine(name), kinds[i]))
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

func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len(s) > 200 {
		s = s[:200] + "..."
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

// param writes (name::Type {properties}), recording each property's span.
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
		start := w.b.Len()
		w.b.WriteString(key + ": " + text)
		w.spans = append(w.spans, span{start: start, end: w.b.Len(), p: p, key: key})
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
