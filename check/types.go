package check

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/internal/suggest"
)

// BuiltinType is a built-in type of gram: its names and what it becomes
// in JSON Schema and in Go. The table builtins is the one place this is
// written: the checker resolves labels, the schema emitter and the Go
// generator map kinds, and the messages list the types, all from it (a
// test proves docs/language.md's type table agrees).
type BuiltinType struct {
	Kind    Kind
	Name    string   // the canonical label
	Aliases []string // other labels accepted for it
	JSON    string   // the JSON Schema "type"
	Go      string   // the Go type; Array's is the prefix of []Elem
}

var builtins = []BuiltinType{
	{String, "String", []string{"Text"}, "string", "string"},
	{Integer, "Integer", []string{"Int"}, "integer", "int64"},
	{Number, "Number", []string{"Double", "Float"}, "number", "float64"},
	{Boolean, "Boolean", []string{"Bool"}, "boolean", "bool"},
	{Object, "Object", nil, "object", "map[string]any"},
	{Array, "Array", nil, "array", "[]"},
}

// Builtins returns the built-in types, in their canonical order.
func Builtins() []BuiltinType { return append([]BuiltinType(nil), builtins...) }

// Builtin returns the built-in type of kind k (ok false for records and
// enums).
func (k Kind) Builtin() (BuiltinType, bool) {
	for _, b := range builtins {
		if b.Kind == k {
			return b, true
		}
	}
	return BuiltinType{}, false
}

// BuiltinOfJSON returns the built-in type that JSON Schema's "type"
// name jsonType stands for ("integer" is Integer; ok false for "null" and
// anything else): the reading of a schema (gramc import, gramc diff's
// snapshots) maps type names back through the same table.
func BuiltinOfJSON(jsonType string) (BuiltinType, bool) {
	for _, b := range builtins {
		if b.JSON == jsonType {
			return b, true
		}
	}
	return BuiltinType{}, false
}

// builtinTypes maps every built-in label and alias to its kind, and
// builtinNames lists them for suggestions: canonical names, then aliases.
var builtinTypes, builtinNames = func() (map[string]Kind, []string) {
	m := map[string]Kind{}
	var names, aliases []string
	for _, b := range builtins {
		m[b.Name] = b.Kind
		names = append(names, b.Name)
		for _, a := range b.Aliases {
			m[a] = b.Kind
			aliases = append(aliases, a)
		}
	}
	return m, append(names, aliases...)
}()

// typeListDetail names the built-in types in messages: "Built-in types
// are String (Text), Integer (Int), ...".
var typeListDetail = func() string {
	var parts []string
	for _, b := range builtins {
		p := b.Name
		if len(b.Aliases) > 0 {
			p += " (" + strings.Join(b.Aliases, ", ") + ")"
		}
		if b.Kind == Array {
			p += " {elementType: T}"
		}
		parts = append(parts, p)
	}
	last := len(parts) - 1
	return "Built-in types are " + strings.Join(parts[:last], ", ") + " and " + parts[last] +
		"; a :Type or :Enum declared in the package may be used by name."
}()

// reservedDetail says which names a declaration cannot take: every
// built-in label, each followed by its aliases.
var reservedDetail = func() string {
	var names []string
	for _, b := range builtins {
		names = append(names, b.Name)
		names = append(names, b.Aliases...)
	}
	return "Built-in type names and their aliases (" + strings.Join(names, ", ") + ") cannot be redeclared; choose another name."
}()

// nonJSONTypes are types users bring from the old textual form or from
// Haskell-like notations; each gets an explanation instead of "unknown".
var nonJSONTypes = map[string]string{
	"IO":      "IO marks a side effect in the old textual signatures; gram types are JSON types, and a tool's return type is the JSON value it returns. Write the result type alone, e.g. (::String) for `IO Text`.",
	"Maybe":   "Maybe is not a JSON type. An optional parameter is written with a property: (name::String {optional: true}) or with a default: (name::String {default: \"world\"}).",
	"Either":  "Either is not a JSON type. Return a declared record ([Result:Type | (ok::Boolean), (value::String)]) or an Object.",
	"List":    "List is not a gram type; write (items::Array {elementType: String}).",
	"Void":    "Every tool returns a JSON value; return (::Object) or (::String) instead.",
	"Nothing": "Every tool returns a JSON value; return (::Object) or (::String) instead.",
}

// declaredNames returns the sorted names of declared types and enums.
func (c *checker) declaredNames() []string {
	if c.declared == nil {
		c.declared = make([]string, 0, len(c.types)+len(c.enums))
		for n := range c.types {
			c.declared = append(c.declared, n)
		}
		for n := range c.enums {
			c.declared = append(c.declared, n)
		}
		sort.Strings(c.declared)
		if c.declared == nil {
			c.declared = []string{}
		}
	}
	return c.declared
}

// nodeType resolves the single type label of a parameter, field or result
// node. what names the node in messages ("parameter city").
func (c *checker) nodeType(n *ast.NodePattern, props propSet, what string) *Type {
	if len(n.Labels) == 0 {
		detail := "Add a type label after the name, e.g. (city::String). " + typeListDetail
		if what == "return type" {
			detail = "Write the return type as an anonymous node with a type label, e.g. ==>(::String). " + typeListDetail
		}
		// (String) names a node String; the type needs colons: (::String).
		if id := n.Identifier; !isNil(id) && c.isTypeName(id.Name) {
			fix := "(name::" + id.Name + ")"
			if what == "return type" {
				fix = "(::" + id.Name + ")"
			}
			d := c.errorf(diag.CodeMissingType, n, "%s has no type label%s", what, suggest.DidYouMeanCode(fix)).WithDetail(fmt.Sprintf("In (%s), %s is the node's name, not its type: a type label follows colons. Write %s.", id.Name, id.Name, fix))
			d.Suggestion = fix
			return nil
		}
		c.errorf(diag.CodeMissingType, n, "%s has no type label", what).WithDetail(detail)
		return nil
	}
	if len(n.Labels) > 1 {
		c.errorf(diag.CodeMultipleTypes, &n.Labels[1], "%s has more than one type label", what).WithDetail("A parameter, field or result has exactly one type label; remove the others. " + typeListDetail)
	}
	l := &n.Labels[0]
	return c.resolveLabel(l.Name, c.labelNameRange(l), props.get("elementType"), 0)
}

// isTypeName reports whether name is a built-in type (or alias) or a
// declared :Type or :Enum.
func (c *checker) isTypeName(name string) bool {
	c.lookedUp(name)
	_, builtin := builtinTypes[name]
	_, record := c.types[name]
	_, enum := c.enums[name]
	return builtin || record || enum
}

// labelNameRange is the range of a label's name, without the colons.
func (c *checker) labelNameRange(l *ast.Label) ast.Range {
	r := c.rng(l)
	if isNil(l) || l.Quoted || r.Start.Line != r.End.Line {
		return r
	}
	n, nb := int32(utf8.RuneCountInString(l.Name)), int32(len(l.Name))
	if r.End.Offset-nb < r.Start.Offset || r.End.Column-n < r.Start.Column {
		return r
	}
	r.Start = ast.Pos{Offset: r.End.Offset - nb, Line: r.End.Line, Column: r.End.Column - n}
	return r
}

// resolveLabel resolves a type name written at r. elem is the node's
// elementType property (for Array).
func (c *checker) resolveLabel(name string, r ast.Range, elem *ast.Property, depth int) *Type {
	c.lookedUp(name)
	if td, ok := c.types[name]; ok {
		return &Type{Kind: Record, Decl: td, Range: r}
	}
	if en, ok := c.enums[name]; ok {
		return &Type{Kind: EnumKind, Enum: en, Range: r}
	}
	if k, ok := builtinTypes[name]; ok {
		t := &Type{Kind: k, Range: r}
		if k == Array {
			t.Elem = c.elementType(t, elem, depth)
			if t.Elem == nil {
				return nil
			}
		}
		return t
	}
	if strings.Contains(name, "->") {
		c.report(diag.Error, diag.CodeNonJSONType, r, fmt.Sprintf("%s is a function type, not a JSON type", name),
			"gram types are JSON types: a tool is itself the function. Write each argument as a parameter node and the result as the last node: (x::String)==>(::String).")
		return nil
	}
	if expl, ok := nonJSONTypes[name]; ok && expl != "" {
		c.report(diag.Error, diag.CodeNonJSONType, r, fmt.Sprintf("%s is not a JSON type", name), expl+" "+typeListDetail)
		return nil
	}
	if c.typeCands == nil {
		c.typeCands = append(append([]string(nil), builtinNames...), c.declaredNames()...)
		c.typeDetail = typeListDetail
		if d := c.declaredNames(); len(d) > 20 {
			c.typeDetail += fmt.Sprintf(" Declared in this package: %s and %d more.", strings.Join(d[:20], ", "), len(d)-20)
		} else if len(d) > 0 {
			c.typeDetail += " Declared in this package: " + strings.Join(d, ", ") + "."
		}
	}
	cands, detail := c.typeCands, c.typeDetail
	c.usedDeclared = c.recDeps
	isKind := contains(kindLabels, name)
	if isKind {
		detail = fmt.Sprintf(":%s declares something at the top level; it is not a type. ", name) + detail
	}
	d := c.report(diag.Error, diag.CodeUnknownType, r, fmt.Sprintf("unknown type %s", name), detail)
	if s := c.suggest(name, cands); s != "" && !isKind {
		d.Summary += suggest.DidYouMean(s)
		d.Suggestion = s
	}
	return nil
}

// elementType resolves an Array's elementType property.
func (c *checker) elementType(arr *Type, p *ast.Property, depth int) *Type {
	if p == nil {
		c.report(diag.Error, diag.CodeMissingElementType, arr.Range, "Array needs an elementType",
			"Say what the array holds: (tags::Array {elementType: String}). For an array of records, declare a :Type and name it: {elementType: WeatherReport}.")
		return nil
	}
	var name string
	switch v := p.Value.(type) {
	case *ast.Symbol:
		name = v.Name
	case *ast.String:
		name = v.Value
	case *ast.TaggedString:
		name = v.Value
	default:
		c.errorf(diag.CodeInvalidPropertyValue, p.Value, "elementType must name a type, not %s", describeValue(p.Value)).WithDetail("Name the element type, e.g. {elementType: String} or {elementType: WeatherReport}.")
		return nil
	}
	name = strings.TrimSpace(name)
	if name == "Array" || depth > 0 {
		c.errorf(diag.CodeMissingElementType, p.Value, "an array of arrays needs a declared :Type").WithDetail("gram cannot say what the inner array holds. Declare a :Type with an Array field and use it as the element type.")
		return nil
	}
	return c.resolveLabel(name, c.rng(p.Value), nil, depth+1)
}

// finiteTypes warns about records that have no finite JSON value: a
// required field whose record type needs, through required fields only,
// the record itself ([Node:Type | (next::Node)]). No model can produce
// such an argument. Recursion through an array or an optional field is
// fine: [] and an absent field end it.
func (c *checker) finiteTypes() {
	finite, _ := finiteRecords(c.pkg.Types)
	for _, td := range c.pkg.Types {
		if finite[td] {
			continue
		}
		for _, f := range td.Fields {
			// An unnamed field already has its own error.
			if f == nil || f.Name == "" || !f.Required() || f.Type == nil || f.Type.Kind != Record || f.Type.Decl == nil || finite[f.Type.Decl] {
				continue
			}
			d := c.report(diag.Warning, diag.CodeInfiniteType, f.NameRange,
				fmt.Sprintf("type %s has no finite value: its required field %s needs %s", td.Name, f.Name, english.A(f.Type.Decl.Name)),
				fmt.Sprintf("Every %s must hold %s, which in turn must hold ... without end, so no model can write one. Make the field optional, (%s::%s {optional: true}), or an array, (%s::Array {elementType: %s}).",
					td.Name, english.A(f.Type.Decl.Name), f.Name, f.Type.Decl.Name, f.Name, f.Type.Decl.Name))
			d.Related = []diag.Related{{Range: td.NameRange, Message: "type " + td.Name + " declared here"}}
			break
		}
	}
}

// finiteRecords is the least fixed point of "a record is finite when every
// required field of record type names a finite record", found in time
// linear in the number of fields: a worklist of the records known finite,
// each lowering the count of unsettled fields of the records that need
// it. (Settling by passes over every record until nothing changes costs a
// pass per link of a chain: quadratic in a chain of types declared in
// dependency order.) visits is the number of fields looked at, at most
// twice the number of fields, for tests to hold it linear.
func finiteRecords(types []*TypeDecl) (finite map[*TypeDecl]bool, visits int) {
	finite = make(map[*TypeDecl]bool, len(types))
	pending := make(map[*TypeDecl]int, len(types)) // required record fields not yet known finite
	users := map[*TypeDecl][]*TypeDecl{}           // a record -> the records whose required fields name it, once per field
	var work []*TypeDecl
	for _, td := range types {
		if _, seen := pending[td]; seen {
			continue
		}
		n := 0
		for _, f := range td.Fields {
			visits++
			if f != nil && f.Required() && f.Type != nil && f.Type.Kind == Record && f.Type.Decl != nil {
				n++
				users[f.Type.Decl] = append(users[f.Type.Decl], td)
			}
		}
		pending[td] = n
		if n == 0 {
			work = append(work, td)
		}
	}
	for len(work) > 0 {
		td := work[len(work)-1]
		work = work[:len(work)-1]
		finite[td] = true
		for _, u := range users[td] {
			visits++
			if pending[u]--; pending[u] == 0 {
				work = append(work, u)
			}
		}
	}
	return finite, visits
}
