package runtimetest

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// ArgumentsFor builds an arguments object for the JSON Schema params from
// text, as a model reading text would fill it in: the first string
// property gets what text says of it (an e-mail address for an email, a
// URL for a uri, else text's last word); other required properties get a
// value of their schema (an enum's first value, the default, an example,
// a number in text, else a plausible value within the bounds, an array of
// its minItems, a nested object of its required properties), and
// nullable ones (strict mode's optional) null. The values keep the
// schema's bounds, lengths and formats where it states them.
func ArgumentsFor(params json.RawMessage, text string) string {
	var s map[string]any
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber()
	if dec.Decode(&s) != nil {
		return "{}"
	}
	props, _ := s["properties"].(map[string]any)
	required := requiredSet(s)
	var b bytes.Buffer
	b.WriteByte('{')
	usedText := false
	for _, key := range propertyOrder(params) {
		ps, _ := props[key].(map[string]any)
		ps = resolveRef(s, ps)
		typ, nullable := schemaType(ps)
		var v any
		switch {
		case nullable:
			// OpenAI's strict mode: an optional parameter is required and
			// nullable, and a model that leaves it out sends null.
			v = nil
		case typ == "string" && !usedText && ps["enum"] == nil:
			v, usedText = guessString(key, ps, text, true), true
		case !required[key]:
			continue
		default:
			v = guessValue(s, key, ps, text, 0)
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

func requiredSet(s map[string]any) map[string]bool {
	required := map[string]bool{}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	return required
}

// schemaType is a schema's one type (null aside) and whether it admits
// null.
func schemaType(ps map[string]any) (string, bool) {
	if t, ok := ps["type"].(string); ok {
		return t, false
	}
	typ, nullable := "", false
	if types, ok := ps["type"].([]any); ok {
		for _, x := range types {
			switch x {
			case "null":
				nullable = true
			default:
				if t, ok := x.(string); ok && typ == "" {
					typ = t
				}
			}
		}
	}
	return typ, nullable
}

// guessValue is a value of schema ps (a property named key) a model would
// give: the enum's first value, the const, the default, the first
// example, else one of its type within its bounds.
func guessValue(root map[string]any, key string, ps map[string]any, text string, depth int) any {
	if e, ok := ps["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	for _, k := range []string{"const", "default"} {
		if v, ok := ps[k]; ok {
			return v
		}
	}
	if ex, ok := ps["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	typ, _ := schemaType(ps)
	switch typ {
	case "integer", "number":
		return guessNumber(ps, text, typ == "integer")
	case "boolean":
		return false
	case "array":
		n := 0
		if m, ok := ps["minItems"].(json.Number); ok {
			if i, err := m.Int64(); err == nil {
				n = int(min(i, 16))
			}
		}
		out := []any{}
		items, _ := ps["items"].(map[string]any)
		items = resolveRef(root, items)
		for i := range n {
			v := guessValue(root, key, items, text, depth+1)
			if s, ok := v.(string); ok && i > 0 {
				v = s + strconv.Itoa(i+1) // distinct, for uniqueItems
			} else if num, ok := v.(json.Number); ok && i > 0 {
				if f, err := num.Float64(); err == nil {
					v = json.Number(strconv.FormatFloat(f+float64(i), 'f', -1, 64))
				}
			}
			out = append(out, v)
		}
		return out
	case "string":
		return guessString(key, ps, text, false)
	case "object":
		out := map[string]any{}
		if depth > 8 {
			return out
		}
		props, _ := ps["properties"].(map[string]any)
		for k := range requiredSet(ps) {
			sub, _ := props[k].(map[string]any)
			out[k] = guessValue(root, k, resolveRef(root, sub), text, depth+1)
		}
		return out
	}
	return map[string]any{}
}

var (
	emailRE  = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)
	urlRE    = regexp.MustCompile(`https?://[^\s<>"')\]]+`)
	numberRE = regexp.MustCompile(`-?\d+(\.\d+)?`)
)

// formatSamples are values of the formats gram knows, for a string of
// that format that the text does not give.
var formatSamples = map[string]string{
	"date-time": "2025-01-01T09:00:00Z", "date": "2025-01-01", "time": "09:00:00Z", "duration": "PT1H",
	"email": "user@example.com", "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
	"uri": "https://example.com/", "uuid": "123e4567-e89b-42d3-a456-426614174000",
}

// guessString is the string a model would give for property key of
// schema ps from text: an e-mail address or a URL text holds when the
// property is one, a sample of its format, else text's last word (first)
// or text itself; then padded or cut to its lengths.
func guessString(key string, ps map[string]any, text string, first bool) string {
	format, _ := ps["format"].(string)
	lower := strings.ToLower(key)
	var v string
	switch {
	case format == "email" || strings.Contains(lower, "email") || strings.HasSuffix(lower, "mail"):
		if v = emailRE.FindString(text); v == "" {
			v = formatSamples["email"]
		}
	case format == "uri" || strings.Contains(lower, "url") || strings.HasSuffix(lower, "uri") || strings.HasSuffix(lower, "link"):
		if v = urlRE.FindString(text); v == "" {
			v = formatSamples["uri"]
		}
	case formatSamples[format] != "":
		v = formatSamples[format]
	case first:
		v = lastWord(text)
	default:
		v = text
	}
	r := []rune(v)
	if m, ok := ps["maxLength"].(json.Number); ok {
		if n, err := m.Int64(); err == nil && int64(len(r)) > n {
			r = r[:max(n, 0)]
		}
	}
	if m, ok := ps["minLength"].(json.Number); ok {
		if n, err := m.Int64(); err == nil {
			for int64(len(r)) < min(n, 1<<12) {
				r = append(r, 'x')
			}
		}
	}
	return string(r)
}

// guessNumber is a number within ps's bounds: one text holds when it
// fits, else 1 moved into the bounds (a model rarely answers 0 for a
// count or a score, and 1 is in more ranges than 0).
func guessNumber(ps map[string]any, text string, integer bool) json.Number {
	bound := func(k string) (float64, bool) {
		n, ok := ps[k].(json.Number)
		if !ok {
			return 0, false
		}
		f, err := n.Float64()
		return f, err == nil
	}
	lo, hasLo := bound("minimum")
	if x, ok := bound("exclusiveMinimum"); ok && (!hasLo || x >= lo) {
		lo, hasLo = x, true
		if integer {
			lo = math.Floor(x) + 1
		} else {
			lo = x + 0.5
		}
	}
	hi, hasHi := bound("maximum")
	if x, ok := bound("exclusiveMaximum"); ok && (!hasHi || x <= hi) {
		hi, hasHi = x, true
		if integer {
			hi = math.Ceil(x) - 1
		} else {
			hi = x - 0.5
		}
	}
	fits := func(f float64) bool {
		return (!hasLo || f >= lo) && (!hasHi || f <= hi) && (!integer || f == math.Trunc(f))
	}
	for _, m := range numberRE.FindAllString(text, 8) {
		if f, err := strconv.ParseFloat(m, 64); err == nil && fits(f) {
			return json.Number(m)
		}
	}
	v := 1.0
	if hasLo && v < lo {
		v = lo
	}
	if hasHi && v > hi {
		v = hi
		if hasLo && v < lo { // a range of one value between exclusive bounds
			v = lo
		}
	}
	if hasLo && hasHi && !fits(v) {
		v = (lo + hi) / 2
	}
	if integer {
		v = math.Ceil(v)
	}
	return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
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

// lastWord is the word of text a string argument most likely names: its
// last capitalised word of two letters or more (a name, a city: "Ada" in
// "Hello! My name is Ada.", "Paris" in "Rain in Paris for 3 days"), else
// its last word.
func lastWord(text string) string {
	fields := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' })
	if len(fields) == 0 {
		return "world"
	}
	for i := len(fields) - 1; i > 0; i-- {
		if r := []rune(fields[i]); len(r) > 1 && unicode.IsUpper(r[0]) {
			return fields[i]
		}
	}
	return fields[len(fields)-1]
}
