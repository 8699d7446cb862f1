package schema

import (
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/jsonstr"

	"github.com/invopop/jsonschema"
)

// The encoder writes compact JSON with a fixed key order. encoding/json
// prints an invopop/jsonschema.Schema in struct-field order ("$defs" before
// "type", "description" near the end) and escapes <, > and &; the schemas a
// provider (and a reader) sees should instead read top-down: what the value
// is, its constraints, its members, then its documentation and definitions.
// The order is documented in docs/schema.md and is part of the byte-stable
// output contract.

// member is one key/value pair of an ordered JSON object.
type member struct {
	key   string
	value any
}

// object is a JSON object whose keys print in slice order.
type object []member

// extraType is the Extras key that holds a type union (["string","null"]);
// invopop's Schema.Type holds a single type name only.
const extraType = "type"

// extraNullable is the Extras key of Gemini's OpenAPI `nullable` flag.
const extraNullable = "nullable"

// encoder accumulates compact JSON. err is the first error of an object's
// members (see members); it stops the writing of the rest.
type encoder struct {
	buf []byte
	err error
}

func (e *encoder) str(s string) {
	e.buf = jsonstr.AppendString(e.buf, s)
}

// members writes the members of one JSON object, in the order of its
// calls, between the braces open and close write. The first error stops
// the writing; close returns it.
type members struct {
	e     *encoder
	first bool
}

func (e *encoder) open() members {
	e.buf = append(e.buf, '{')
	return members{e: e, first: true}
}

// key starts the member k and reports whether to write its value.
func (m *members) key(k string) bool {
	if m.e.err != nil {
		return false
	}
	if !m.first {
		m.e.buf = append(m.e.buf, ',')
	}
	m.first = false
	m.e.str(k)
	m.e.buf = append(m.e.buf, ':')
	return true
}

func (m *members) close() error {
	if m.e.err != nil {
		return m.e.err
	}
	m.e.buf = append(m.e.buf, '}')
	return nil
}

// value writes the member k: v.
func (m *members) value(k string, v any) {
	if m.key(k) {
		m.e.err = m.e.value(v)
	}
}

// optional writes the member k: v, unless v is nil.
func (m *members) optional(k string, v any) {
	if v != nil {
		m.value(k, v)
	}
}

// values writes the member k: vs, unless vs is nil.
func (m *members) values(k string, vs []any) {
	if vs != nil {
		m.value(k, vs)
	}
}

// names writes the member k: ns, unless ns is nil.
func (m *members) names(k string, ns []string) {
	if ns != nil {
		m.value(k, ns)
	}
}

// schema writes the member k: s, unless s is nil.
func (m *members) schema(k string, s *jsonschema.Schema) {
	if s != nil && m.key(k) {
		m.e.err = m.e.schema(s)
	}
}

// str writes the member k: s, unless s is empty.
func (m *members) str(k, s string) {
	if s != "" && m.key(k) {
		m.e.str(s)
	}
}

// number writes the member k: n, unless n is empty.
func (m *members) number(k string, n json.Number) {
	if n != "" {
		m.value(k, n)
	}
}

// count writes the member k: *n, unless n is nil.
func (m *members) count(k string, n *uint64) {
	if n != nil && m.key(k) {
		m.e.buf = strconv.AppendUint(m.e.buf, *n, 10)
	}
}

// flag writes the member k: true when b is.
func (m *members) flag(k string, b bool) {
	if b && m.key(k) {
		m.e.buf = append(m.e.buf, "true"...)
	}
}

// list writes a JSON array of n elements, the ith written by elem.
func (e *encoder) list(n int, elem func(i int) error) error {
	e.buf = append(e.buf, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := elem(i); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

// value writes any JSON-ready value: an ordered object, a schema, raw JSON
// and the values check.Value produces (string, json.Number, bool, []any,
// map[string]any, nil).
func (e *encoder) value(v any) error {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case object:
		o := e.open()
		for _, m := range v {
			o.value(m.key, m.value)
		}
		return o.close()
	case *jsonschema.Schema:
		return e.schema(v)
	case json.RawMessage:
		if !json.Valid(v) {
			return fmt.Errorf("invalid raw JSON %q", v)
		}
		e.buf = append(e.buf, v...)
	case string:
		e.str(v)
	case bool:
		e.buf = strconv.AppendBool(e.buf, v)
	case json.Number:
		if !check.IsJSONNumber(string(v)) {
			return fmt.Errorf("invalid JSON number %q", string(v))
		}
		e.buf = append(e.buf, v...)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(v), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, v, 10)
	case uint64:
		e.buf = strconv.AppendUint(e.buf, v, 10)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("number %v has no JSON form", v)
		}
		e.buf = strconv.AppendFloat(e.buf, v, 'g', -1, 64)
	case []any:
		return e.list(len(v), func(i int) error { return e.value(v[i]) })
	case []string:
		return e.list(len(v), func(i int) error { e.str(v[i]); return nil })
	case map[string]any:
		o := e.open()
		for k, x := range sorted(v) {
			o.value(k, x)
		}
		return o.close()
	default:
		return fmt.Errorf("value of type %T has no JSON form here", v)
	}
	return nil
}

// schema writes s with the documented key order. Only the keywords gramc
// emits are written; any other field set on s is a bug and is reported.
func (e *encoder) schema(s *jsonschema.Schema) error {
	switch s {
	case nil:
		return fmt.Errorf("nil schema")
	case jsonschema.TrueSchema:
		e.buf = append(e.buf, "true"...)
		return nil
	case jsonschema.FalseSchema:
		e.buf = append(e.buf, "false"...)
		return nil
	}
	if s.ID != "" || s.Anchor != "" || s.DynamicRef != "" || s.AllOf != nil || s.OneOf != nil || s.Not != nil ||
		s.If != nil || s.Then != nil || s.Else != nil || s.DependentSchemas != nil || s.PrefixItems != nil ||
		s.Contains != nil || s.PatternProperties != nil || s.PropertyNames != nil || s.MaxContains != nil ||
		s.MinContains != nil || s.MaxProperties != nil || s.MinProperties != nil || s.DependentRequired != nil ||
		s.ContentEncoding != "" || s.ContentMediaType != "" || s.ContentSchema != nil || s.ReadOnly || s.WriteOnly ||
		s.Comments != "" {
		return fmt.Errorf("schema uses a keyword the encoder does not write")
	}
	for k := range s.Extras {
		if k != extraType && k != extraNullable {
			return fmt.Errorf("schema extra %q is not written by the encoder", k)
		}
	}
	o := e.open()
	o.str("$schema", s.Version)
	o.str("$ref", s.Ref)
	o.str("title", s.Title)
	if t, ok := s.Extras[extraType]; ok && s.Type == "" {
		o.value("type", t) // a union: ["string","null"]
	} else {
		o.str("type", s.Type)
	}
	if n, ok := s.Extras[extraNullable]; ok {
		o.value(extraNullable, n)
	}
	o.str("format", s.Format)
	o.values("enum", s.Enum)
	o.optional("const", s.Const)
	o.str("pattern", s.Pattern)
	o.count("minLength", s.MinLength)
	o.count("maxLength", s.MaxLength)
	o.number("minimum", s.Minimum)
	o.number("exclusiveMinimum", s.ExclusiveMinimum)
	o.number("maximum", s.Maximum)
	o.number("exclusiveMaximum", s.ExclusiveMaximum)
	o.number("multipleOf", s.MultipleOf)
	o.schema("items", s.Items)
	o.count("minItems", s.MinItems)
	o.count("maxItems", s.MaxItems)
	o.flag("uniqueItems", s.UniqueItems)
	if s.Properties != nil && o.key("properties") {
		ps := e.open()
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			ps.value(p.Key, p.Value) // a nil schema is an error
		}
		ps.close()
	}
	o.names("required", s.Required)
	o.schema("additionalProperties", s.AdditionalProperties)
	if s.AnyOf != nil && o.key("anyOf") {
		e.err = e.list(len(s.AnyOf), func(i int) error { return e.schema(s.AnyOf[i]) })
	}
	o.str("description", s.Description)
	o.optional("default", s.Default)
	o.values("examples", s.Examples)
	o.flag("deprecated", s.Deprecated)
	if len(s.Definitions) > 0 && o.key("$defs") {
		defs := e.open()
		for k, d := range sorted(s.Definitions) {
			defs.value(k, d)
		}
		defs.close()
	}
	return o.close()
}

// sorted yields the entries of m in the order of their keys. The keys
// go into a slice made at their number (slices.Sorted(maps.Keys(m))
// grows one as it goes: 20,000 more allocations for 10,000 tools' schemas,
// BenchmarkSchema).
func sorted[V any](m map[string]V) iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}

// marshal encodes v compactly.
func marshal(v any) (json.RawMessage, error) {
	e := encoder{buf: make([]byte, 0, 512)}
	if err := e.value(v); err != nil {
		return nil, err
	}
	return e.buf, nil
}
