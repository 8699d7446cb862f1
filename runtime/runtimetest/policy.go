package runtimetest

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// ArgumentsFor builds an arguments object for the JSON Schema params from
// text: the first string property gets text's last word; other required
// properties get a value of their type (an enum's first value, a number's
// minimum), and nullable ones (strict mode's optional) null.
func ArgumentsFor(params json.RawMessage, text string) string {
	var s map[string]any
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber()
	if dec.Decode(&s) != nil {
		return "{}"
	}
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	usedText := false
	for _, key := range propertyOrder(params) {
		ps, _ := props[key].(map[string]any)
		ps = resolveRef(s, ps)
		typ, _ := ps["type"].(string)
		nullable := false
		if types, ok := ps["type"].([]any); ok {
			for _, x := range types {
				if x == "null" {
					nullable = true
				}
			}
		}
		var v any
		switch {
		case nullable:
			// OpenAI's strict mode: an optional parameter is required and
			// nullable, and a model that leaves it out sends null.
			v = nil
		case typ == "string" && !usedText && ps["enum"] == nil:
			v, usedText = lastWord(text), true
		case !required[key]:
			continue
		case ps["enum"] != nil:
			if e, ok := ps["enum"].([]any); ok && len(e) > 0 {
				v = e[0]
			}
		case typ == "integer" || typ == "number":
			v = json.Number("0")
			if m, ok := ps["minimum"].(json.Number); ok {
				v = m
			}
		case typ == "boolean":
			v = false
		case typ == "array":
			v = []any{}
		case typ == "string":
			v = text
		default:
			v = map[string]any{}
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		val, _ := json.Marshal(v)
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.String()
}

func resolveRef(root map[string]any, s map[string]any) map[string]any {
	for range 8 {
		ref, ok := s["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#/$defs/") {
			return s
		}
		defs, _ := root["$defs"].(map[string]any)
		next, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if !ok {
			return s
		}
		s = next
	}
	return s
}

// propertyOrder returns the keys of the schema's "properties" in the order
// they are written.
func propertyOrder(params json.RawMessage) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(params, &top) != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(top["properties"]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

func lastWord(text string) string {
	fields := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' })
	if len(fields) == 0 {
		return "world"
	}
	return fields[len(fields)-1]
}
