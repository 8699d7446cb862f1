package schema

import (
	"encoding/json"
	"fmt"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"math"
	"sort"
	"strconv"

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

// encoder accumulates compact JSON.
type encoder struct {
	buf []byte
}

func (e *encoder) str(s string) {
	e.buf = jsonstr.AppendString(e.buf, s)
}

func (e *encoder) key(first *bool, k string) {
	if !*first {
		e.buf = append(e.buf, ',')
	}
	*first = false
	e.str(k)
	e.buf = append(e.buf, ':')
}

// value writes any JSON-ready value: an ordered object, a schema, raw JSON
// and the values check.Value produces (string, json.Number, bool, []any,
// map[string]any, nil).
func (e *encoder) value(v any) error {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case object:
		e.buf = append(e.buf, '{')
		first := true
		for _, m := range v {
			e.key(&first, m.key)
			if err := e.value(m.value); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
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
		if !validNumber(string(v)) {
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
		e.buf = append(e.buf, '[')
		for i, x := range v {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if err := e.value(x); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, ']')
	case []string:
		e.buf = append(e.buf, '[')
		for i, x := range v {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.str(x)
		}
		e.buf = append(e.buf, ']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		e.buf = append(e.buf, '{')
		first := true
		for _, k := range keys {
			e.key(&first, k)
			if err := e.value(v[k]); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
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
	e.buf = append(e.buf, '{')
	first := true
	if s.Version != "" {
		e.key(&first, "$schema")
		e.str(s.Version)
	}
	if s.Ref != "" {
		e.key(&first, "$ref")
		e.str(s.Ref)
	}
	if s.Title != "" {
		e.key(&first, "title")
		e.str(s.Title)
	}
	if s.Type != "" {
		e.key(&first, "type")
		e.str(s.Type)
	} else if t, ok := s.Extras[extraType]; ok {
		e.key(&first, "type")
		if err := e.value(t); err != nil {
			return err
		}
	}
	if n, ok := s.Extras[extraNullable]; ok {
		e.key(&first, extraNullable)
		if err := e.value(n); err != nil {
			return err
		}
	}
	for k := range s.Extras {
		if k != extraType && k != extraNullable {
			return fmt.Errorf("schema extra %q is not written by the encoder", k)
		}
	}
	if s.Format != "" {
		e.key(&first, "format")
		e.str(s.Format)
	}
	if s.Enum != nil {
		e.key(&first, "enum")
		if err := e.value(s.Enum); err != nil {
			return err
		}
	}
	if s.Const != nil {
		e.key(&first, "const")
		if err := e.value(s.Const); err != nil {
			return err
		}
	}
	if s.Pattern != "" {
		e.key(&first, "pattern")
		e.str(s.Pattern)
	}
	if s.MinLength != nil {
		e.key(&first, "minLength")
		e.buf = strconv.AppendUint(e.buf, *s.MinLength, 10)
	}
	if s.MaxLength != nil {
		e.key(&first, "maxLength")
		e.buf = strconv.AppendUint(e.buf, *s.MaxLength, 10)
	}
	for _, n := range []struct {
		k string
		v json.Number
	}{{"minimum", s.Minimum}, {"exclusiveMinimum", s.ExclusiveMinimum}, {"maximum", s.Maximum}, {"exclusiveMaximum", s.ExclusiveMaximum}, {"multipleOf", s.MultipleOf}} {
		if n.v != "" {
			e.key(&first, n.k)
			if err := e.value(n.v); err != nil {
				return err
			}
		}
	}
	if s.Items != nil {
		e.key(&first, "items")
		if err := e.schema(s.Items); err != nil {
			return err
		}
	}
	if s.MinItems != nil {
		e.key(&first, "minItems")
		e.buf = strconv.AppendUint(e.buf, *s.MinItems, 10)
	}
	if s.MaxItems != nil {
		e.key(&first, "maxItems")
		e.buf = strconv.AppendUint(e.buf, *s.MaxItems, 10)
	}
	if s.UniqueItems {
		e.key(&first, "uniqueItems")
		e.buf = append(e.buf, "true"...)
	}
	if s.Properties != nil {
		e.key(&first, "properties")
		e.buf = append(e.buf, '{')
		pfirst := true
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			e.key(&pfirst, p.Key)
			if err := e.schema(p.Value); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
	}
	if s.Required != nil {
		e.key(&first, "required")
		e.value(s.Required) //nolint:errcheck // []string cannot fail
	}
	if s.AdditionalProperties != nil {
		e.key(&first, "additionalProperties")
		if err := e.schema(s.AdditionalProperties); err != nil {
			return err
		}
	}
	if s.AnyOf != nil {
		e.key(&first, "anyOf")
		e.buf = append(e.buf, '[')
		for i, sub := range s.AnyOf {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if err := e.schema(sub); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, ']')
	}
	if s.Description != "" {
		e.key(&first, "description")
		e.str(s.Description)
	}
	if s.Default != nil {
		e.key(&first, "default")
		if err := e.value(s.Default); err != nil {
			return err
		}
	}
	if s.Examples != nil {
		e.key(&first, "examples")
		if err := e.value(s.Examples); err != nil {
			return err
		}
	}
	if s.Deprecated {
		e.key(&first, "deprecated")
		e.buf = append(e.buf, "true"...)
	}
	if len(s.Definitions) > 0 {
		e.key(&first, "$defs")
		names := make([]string, 0, len(s.Definitions))
		for k := range s.Definitions {
			names = append(names, k)
		}
		sort.Strings(names)
		e.buf = append(e.buf, '{')
		dfirst := true
		for _, k := range names {
			e.key(&dfirst, k)
			if err := e.schema(s.Definitions[k]); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, '}')
	return nil
}

// validNumber reports whether s is a JSON number literal.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i == len(s) {
		return false
	}
	switch {
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(s)
}

// marshal encodes v compactly.
func marshal(v any) (json.RawMessage, error) {
	e := encoder{buf: make([]byte, 0, 512)}
	if err := e.value(v); err != nil {
		return nil, err
	}
	return e.buf, nil
}
