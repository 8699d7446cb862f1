package schema

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

// builder turns model types into invopop/jsonschema values for one tool and
// one target, collecting what the target could not express as issues.
type builder struct {
	sub    *subset
	d      *dialect
	target Target
	defs   jsonschema.Definitions
	// root is the record an output schema is rooted at: references to it
	// become "#".
	root *check.TypeDecl
	// inlining holds the records being inlined (Gemini), to detect
	// recursion.
	inlining map[*check.TypeDecl]bool
	// properties counts the properties built; inlining can grow a small
	// package exponentially (a type using another twice, and so on).
	properties int
	tooLarge   bool
	issues     diag.Diagnostics
	// quiet counts the unresolved types being built: nothing is reported
	// about them (see param).
	quiet int
}

// MaxInlinedProperties bounds the properties of one Gemini schema, where
// named types are inlined at every use.
const MaxInlinedProperties = 10000

func newBuilder(sub *subset, d *dialect) *builder {
	return &builder{sub: sub, d: d, target: d.target, defs: jsonschema.Definitions{}, inlining: map[*check.TypeDecl]bool{}}
}

// name is how diagnostics name the target: a strict-mode schema for the
// openai or openai-responses target says so ("openai (strict: true)").
func (b *builder) name() string {
	if b.sub.allRequired && b.d.strict != alwaysStrict {
		return string(b.target) + " (strict: true)"
	}
	return string(b.target)
}

func (b *builder) report(sev diag.Severity, code diag.Code, r ast.Range, summary, detail string, related ...diag.Related) {
	if b.quiet > 0 {
		return
	}
	b.issues = append(b.issues, &diag.Diagnostic{
		Severity: sev, Code: code, Summary: summary, Detail: detail, Range: r, Related: related,
	})
}

// fallback reports a keyword the target does not support, whose meaning
// was moved into the description.
func (b *builder) fallback(r ast.Range, keyword string) {
	b.report(diag.Warning, diag.CodeTargetKeywordInDescription, r,
		fmt.Sprintf("%s does not support %s; moved into the description", b.name(), keyword),
		fmt.Sprintf("%s cannot express %s in its schema, so gramc states it in the description instead and the provider will not enforce it. Validate the arguments in the tool, or drop the keyword.", b.name(), keyword))
}

// nonNegative is a length or count keyword's value (the caller has
// checked that n is not negative).
func nonNegative(n int64) *uint64 {
	u := uint64(n)
	return &u
}

func newProperties() *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	return orderedmap.New[string, *jsonschema.Schema]()
}

// refTo is the $ref of a named definition: a JSON pointer (~ and /
// escaped) inside a URI fragment (percent-encoded).
func refTo(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return "#/$defs/" + (&url.URL{Fragment: pointerEscaper.Replace(name)}).EscapedFragment()
		}
	}
	return "#/$defs/" + name
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// input builds the arguments object of t.
func (b *builder) input(t *check.Tool) *jsonschema.Schema {
	s := b.object(t.Params)
	if len(b.defs) > 0 {
		s.Definitions = b.defs
	}
	return s
}

// output builds the result schema of t. A record result is the root
// object itself (so MCP sees `type: object`); references back to it are
// "#".
func (b *builder) output(t *check.Tool) *jsonschema.Schema {
	r := t.Result
	var s *jsonschema.Schema
	switch {
	case r == nil:
		s = &jsonschema.Schema{}
	case r.Kind == check.Record && r.Decl != nil && !b.sub.inlineDefs:
		b.root = r.Decl
		s = b.record(r.Decl)
	default:
		s = b.typ(r, t.Range)
	}
	if t.ResultDescription != "" {
		s.Description = t.ResultDescription
	}
	if len(b.defs) > 0 {
		s.Definitions = b.defs
	}
	return s
}

// object is the schema of a parameter list or a record's fields.
func (b *builder) object(params []*check.Param) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: newProperties()}
	var required []string
	b.properties += len(params)
	for _, p := range params {
		s.Properties.Set(p.Name, b.param(p))
		if p.Required() || b.sub.allRequired {
			required = append(required, p.Name)
		}
	}
	s.Required = required
	if b.sub.closedObjects {
		s.AdditionalProperties = jsonschema.FalseSchema
	}
	return s
}

// record is the object schema of a declared :Type.
func (b *builder) record(d *check.TypeDecl) *jsonschema.Schema {
	s := b.object(d.Fields)
	s.Description = d.Description
	return s
}

// enum is the schema of a declared :Enum.
func (b *builder) enum(e *check.Enum) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: jsonType(e.ValueKind), Enum: e.Values, Description: e.Description}
	if b.sub.stringEnums {
		if e.ValueKind == check.String {
			s.Format = "enum"
		} else {
			// Enums hold strings only: keep the integer type and list the
			// values in the description.
			s.Enum = nil
			s.Description = joinSentences(s.Description, "One of: "+jsonstr.List(e.Values)+".")
			b.report(diag.Warning, diag.CodeTargetEnumInDescription, e.NameRange,
				fmt.Sprintf("%s enums hold strings only; the values of %s are listed in the description", b.target, e.Name),
				fmt.Sprintf("%s accepts `enum` on strings only. gramc keeps the integer type and names the allowed values in the description; the tool must still reject other values. Declare the enum with string values to have %s enforce it.", b.sub.provider, b.sub.provider))
		}
	}
	return s
}

func jsonType(k check.Kind) string {
	if b, ok := k.Builtin(); ok {
		return b.JSON
	}
	return "object"
}

// typ is the schema of a type written at r.
func (b *builder) typ(t *check.Type, r ast.Range) *jsonschema.Schema {
	switch t.Kind {
	case check.String, check.Integer, check.Number, check.Boolean:
		return &jsonschema.Schema{Type: jsonType(t.Kind)}
	case check.Object:
		if !b.sub.freeFormObjects {
			b.report(diag.Error, diag.CodeTargetStrictFreeFormObject, r,
				fmt.Sprintf("%s does not accept a free-form Object", b.name()),
				b.sub.provider+" requires every object to list its properties and set additionalProperties to false, so a free-form Object cannot be sent. Declare a :Type with the fields you expect, or use a non-strict target.")
		}
		return &jsonschema.Schema{Type: "object"}
	case check.Array:
		s := &jsonschema.Schema{Type: "array"}
		if t.Elem != nil {
			s.Items = b.typ(t.Elem, r)
		}
		return s
	case check.Record:
		d := t.Decl
		if d == nil {
			return &jsonschema.Schema{Type: "object"}
		}
		if b.sub.inlineDefs {
			if b.inlining[d] {
				b.report(diag.Error, diag.CodeTargetRecursiveType, r,
					fmt.Sprintf("%s cannot express the recursive type %s", b.target, d.Name),
					b.sub.provider+"'s schema has no $ref, so gramc inlines named types, and a type that contains itself cannot be inlined. Break the cycle (for example with an identifier field that refers to the other value), or use another target.",
					diag.Related{Range: d.NameRange, Message: fmt.Sprintf("%s is declared here", d.Name)})
				return &jsonschema.Schema{Type: "object", Description: d.Description}
			}
			if b.properties+len(d.Fields) > MaxInlinedProperties {
				if !b.tooLarge {
					b.tooLarge = true
					b.report(diag.Error, diag.CodeTargetSchemaTooLarge, r,
						fmt.Sprintf("%s would inline more than %d properties", b.target, MaxInlinedProperties),
						b.sub.provider+"'s schema has no $ref, so gramc copies a named type at every use; this tool's types use each other so often that the copies grow too large. Use fewer nested named types, or another target.",
						diag.Related{Range: d.NameRange, Message: fmt.Sprintf("%s is declared here", d.Name)})
				}
				return &jsonschema.Schema{Type: "object"}
			}
			b.inlining[d] = true
			s := b.record(d)
			delete(b.inlining, d)
			return s
		}
		if d == b.root {
			return &jsonschema.Schema{Ref: "#"}
		}
		if _, ok := b.defs[d.Name]; !ok {
			b.defs[d.Name] = &jsonschema.Schema{} // placeholder: cuts recursion
			b.defs[d.Name] = b.record(d)
		}
		return &jsonschema.Schema{Ref: refTo(d.Name)}
	case check.EnumKind:
		e := t.Enum
		if e == nil {
			return &jsonschema.Schema{Type: "string"}
		}
		if b.sub.inlineDefs {
			return b.enum(e)
		}
		if _, ok := b.defs[e.Name]; !ok {
			b.defs[e.Name] = b.enum(e)
		}
		return &jsonschema.Schema{Ref: refTo(e.Name)}
	}
	return &jsonschema.Schema{}
}

// param is the schema of a parameter or field.
func (b *builder) param(p *check.Param) *jsonschema.Schema {
	if rule := b.d.propertyName; rule != nil && !rule.re.MatchString(p.Name) {
		b.report(rule.severity, diag.CodeTargetInvalidPropertyName, p.NameRange,
			fmt.Sprintf("%s does not accept the property name %q", b.target, p.Name),
			fmt.Sprintf("%s parameter names must %s. Rename the parameter.", b.sub.provider, rule.words))
	}
	t := p.Type
	if t == nil {
		// A type the checker could not resolve (it reported why): an
		// unknown type is unknown, and no target says more about it.
		t = &check.Type{Kind: check.Object}
		b.quiet++
		defer func() { b.quiet-- }()
	}
	s := b.typ(t, p.Range)
	// Keywords on a $ref'd type would constrain the reference; the checker
	// only allows constraints on scalars and arrays, so they land on s.
	var notes []string
	// kept reports whether the target carries a keyword; when it does not,
	// note's sentence goes into the description and the fallback is
	// reported. The sentence is made only then: most targets carry most
	// keywords.
	kept := func(supported bool, keyword string, note func() string) bool {
		if !supported {
			notes = append(notes, note())
			b.fallback(p.Range, keyword)
		}
		return supported
	}
	c := p.Constraints.Value()
	if c.Enum != nil {
		if b.sub.stringEnums && t.Kind != check.String {
			notes = append(notes, "One of: "+jsonstr.List(c.Enum)+".")
			b.report(diag.Warning, diag.CodeTargetEnumInDescription, p.Range,
				fmt.Sprintf("%s enums hold strings only; the values of %s are listed in the description", b.target, p.Name),
				b.sub.provider+" accepts `enum` on strings only. gramc keeps the numeric type and names the allowed values in the description; the tool must still reject other values.")
		} else {
			s.Enum = c.Enum
			if b.sub.stringEnums {
				s.Format = "enum"
			}
		}
	}
	if c.Minimum != nil {
		s.Minimum = *c.Minimum
	}
	if c.Maximum != nil {
		s.Maximum = *c.Maximum
	}
	if c.ExclusiveMinimum != nil && kept(b.sub.exclusiveBounds, "exclusiveMinimum", func() string { return "Greater than " + string(*c.ExclusiveMinimum) + "." }) {
		s.ExclusiveMinimum = *c.ExclusiveMinimum
	}
	if c.ExclusiveMaximum != nil && kept(b.sub.exclusiveBounds, "exclusiveMaximum", func() string { return "Less than " + string(*c.ExclusiveMaximum) + "." }) {
		s.ExclusiveMaximum = *c.ExclusiveMaximum
	}
	if c.MinLength != nil && *c.MinLength >= 0 && kept(b.sub.lengths, "minLength", func() string { return fmt.Sprintf("At least %s.", plural(*c.MinLength, "character")) }) {
		s.MinLength = nonNegative(*c.MinLength)
	}
	if c.MaxLength != nil && *c.MaxLength >= 0 && kept(b.sub.lengths, "maxLength", func() string { return fmt.Sprintf("At most %s.", plural(*c.MaxLength, "character")) }) {
		s.MaxLength = nonNegative(*c.MaxLength)
	}
	if c.Pattern != "" {
		s.Pattern = c.Pattern
	}
	if c.Format != "" {
		switch {
		case b.sub.formats != nil && !b.sub.formats[c.Format]:
			notes = append(notes, "Format: "+c.Format+".")
			b.fallback(p.Range, "format "+c.Format)
		case b.sub.stringEnums && s.Format == "enum":
			// The "enum" format wins; the format is described.
			notes = append(notes, "Format: "+c.Format+".")
			b.fallback(p.Range, "format "+c.Format+" on an enum")
		default:
			s.Format = c.Format
		}
	}
	if c.MinItems != nil && *c.MinItems >= 0 {
		s.MinItems = nonNegative(*c.MinItems)
	}
	if c.MaxItems != nil && *c.MaxItems >= 0 {
		s.MaxItems = nonNegative(*c.MaxItems)
	}
	if c.UniqueItems && kept(b.sub.uniqueItems, "uniqueItems", func() string { return "Items must be unique." }) {
		s.UniqueItems = true
	}
	if p.HasDefault {
		if b.sub.allRequired {
			notes = append(notes, "Default: "+jsonstr.Text(p.Default)+".")
			b.report(diag.Warning, diag.CodeTargetDefaultInDescription, p.Range,
				fmt.Sprintf("%s does not support default; %s is nullable and its default is in the description", b.name(), p.Name),
				b.sub.provider+" has no `default`: every property is required, so an optional parameter becomes a union with null. When the model sends null, the tool (or gramc's runtime) applies the default.")
		} else {
			s.Default = p.Default
		}
	}
	if len(p.Examples) > 0 && kept(b.sub.examples, "examples", func() string { return "Examples: " + jsonstr.List(p.Examples) + "." }) {
		s.Examples = p.Examples
	}
	if p.Deprecated && kept(b.sub.deprecated, "deprecated", func() string { return "Deprecated." }) {
		s.Deprecated = true
	}
	desc := p.Description
	if b.sub.inlineDefs && s.Description != "" && s.Description != desc {
		// An inlined type's own description follows the parameter's: it
		// may carry what the subset cannot express (an integer enum's
		// values).
		desc = joinSentences(desc, s.Description)
	}
	desc = joinSentences(append([]string{desc}, notes...)...)
	if !b.sub.allRequired {
		if desc != "" {
			s.Description = desc
		}
		return s
	}
	// Strict: a $ref must stand alone, and an optional property is a
	// union with null.
	optional := !p.Required()
	if s.Ref != "" || s.Type == "" {
		if optional || desc != "" {
			alts := []*jsonschema.Schema{s}
			if optional {
				alts = append(alts, &jsonschema.Schema{Type: "null"})
			}
			s = &jsonschema.Schema{AnyOf: alts}
		}
	} else if optional {
		s.Extras = map[string]any{extraType: []any{s.Type, "null"}}
		s.Type = ""
		if s.Enum != nil {
			s.Enum = append(append([]any(nil), s.Enum...), nil)
		}
	}
	s.Description = desc
	return s
}

// joinSentences joins the non-empty parts with spaces, ending an earlier
// part with a full stop when it has none.
func joinSentences(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			s := b.String()
			if last := s[len(s)-1]; last != '.' && last != '!' && last != '?' && last != ':' {
				b.WriteByte('.')
			}
			b.WriteByte(' ')
		}
		b.WriteString(p)
	}
	return b.String()
}

// plural is "1 character", "2 characters".
func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
