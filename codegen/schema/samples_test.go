package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"strings"
	"testing"
)

// Sample arguments: for each tool and each target whose payload holds a
// JSON Schema, a generated valid arguments object must pass, and copies
// that break one rule (missing required, wrong type, out of range, not in
// the enum, an extra property) must fail.

// resolver follows $refs inside one schema document.
type resolver struct{ root map[string]any }

func (r resolver) resolve(s map[string]any) map[string]any {
	for i := 0; i < 64; i++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		if ref == "#" {
			s = r.root
			continue
		}
		frag, _ := url.PathUnescape(strings.TrimPrefix(ref, "#/$defs/"))
		frag = strings.NewReplacer("~1", "/", "~0", "~").Replace(frag)
		s = r.root["$defs"].(map[string]any)[frag].(map[string]any)
	}
	return s
}

// types is the set of JSON types s allows.
func (r resolver) types(s map[string]any) map[string]bool {
	s = r.resolve(s)
	out := map[string]bool{}
	switch t := s["type"].(type) {
	case string:
		out[t] = true
	case []any:
		for _, x := range t {
			out[x.(string)] = true
		}
	}
	if alts, ok := s["anyOf"].([]any); ok {
		for _, a := range alts {
			maps.Copy(out, r.types(a.(map[string]any)))
		}
	}
	if out["integer"] {
		out["number-integer"] = true
	}
	return out
}

func numberOf(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

var formatSamples = map[string]string{
	"date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "time": "03:04:05Z", "duration": "P1D",
	"email": "someone@example.com", "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
	"uri": "https://example.com/x", "uuid": "123e4567-e89b-12d3-a456-426614174000",
}

// sample generates a value s accepts (when it can: a pattern without an
// example may not be met).
func (r resolver) sample(s map[string]any, depth int) any {
	s = r.resolve(s)
	if alts, ok := s["anyOf"].([]any); ok {
		for _, a := range alts {
			if am := r.resolve(a.(map[string]any)); am["type"] != "null" {
				return r.sample(am, depth)
			}
		}
		return nil
	}
	if d, ok := s["default"]; ok {
		return d
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	if e, ok := s["enum"].([]any); ok {
		for _, v := range e {
			if v != nil {
				return v
			}
		}
	}
	typ := ""
	switch t := s["type"].(type) {
	case string:
		typ = t
	case []any:
		typ = t[0].(string)
		if depth > 3 && len(t) > 1 && t[1] == "null" {
			return nil
		}
	}
	switch typ {
	case "string":
		if f, ok := formatSamples[fmt.Sprint(s["format"])]; ok {
			return f
		}
		n := 1
		if m, ok := numberOf(s["minLength"]); ok && int(m) > n {
			n = int(m)
		}
		return strings.Repeat("x", n)
	case "integer", "number":
		lo, hasLo := numberOf(s["minimum"])
		if x, ok := numberOf(s["exclusiveMinimum"]); ok {
			lo, hasLo = x+1, true
		}
		hi, hasHi := numberOf(s["maximum"])
		if x, ok := numberOf(s["exclusiveMaximum"]); ok {
			hi, hasHi = x-1, true
		}
		if typ == "number" && hasLo && hasHi && hi < lo {
			return json.Number(fmt.Sprint((lo + hi) / 2)) // narrow exclusive range
		}
		switch {
		case hasLo:
			return json.Number(fmt.Sprint(lo))
		case hasHi && hi < 1:
			return json.Number(fmt.Sprint(hi))
		}
		return json.Number("1")
	case "boolean":
		return true
	case "array":
		n := 0
		if m, ok := numberOf(s["minItems"]); ok {
			n = int(m)
		}
		if n == 0 && depth <= 3 {
			n = 1
		}
		out := []any{}
		for i := 0; i < n; i++ {
			v := any("x")
			if items, ok := s["items"].(map[string]any); ok {
				v = r.sample(items, depth+1)
			}
			if str, ok := v.(string); ok && i > 0 {
				v = fmt.Sprintf("%s%d", str, i) // keep uniqueItems
			}
			out = append(out, v)
		}
		return out
	default: // object
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		for _, k := range req {
			if p, ok := props[k.(string)].(map[string]any); ok {
				out[k.(string)] = r.sample(p, depth+1)
			}
		}
		return out
	}
}

// breaker makes an arguments object that violates one rule.
type breaker struct {
	name string
	// make returns the broken object, or false when the schema has no such
	// rule to break.
	make func(r resolver, args map[string]any) (map[string]any, bool)
}

func cloneArgs(m map[string]any) map[string]any { return maps.Clone(m) }

// firstProp returns the first property (in required order) whose schema
// satisfies ok.
func firstProp(r resolver, ok func(map[string]any) bool) (string, map[string]any) {
	props, _ := r.root["properties"].(map[string]any)
	req, _ := r.root["required"].([]any)
	for _, k := range req {
		if p, found := props[k.(string)].(map[string]any); found && ok(p) {
			return k.(string), p
		}
	}
	return "", nil
}

var breakers = []breaker{
	{"missing required", func(r resolver, args map[string]any) (map[string]any, bool) {
		name, _ := firstProp(r, func(map[string]any) bool { return true })
		if name == "" {
			return nil, false
		}
		b := cloneArgs(args)
		delete(b, name)
		return b, true
	}},
	{"wrong type", func(r resolver, args map[string]any) (map[string]any, bool) {
		name, p := firstProp(r, func(map[string]any) bool { return true })
		if name == "" {
			return nil, false
		}
		allowed := r.types(p)
		for _, c := range []struct {
			typ string
			v   any
		}{{"string", "text"}, {"number", json.Number("3.5")}, {"boolean", true}, {"array", []any{}}, {"object", map[string]any{}}} {
			if !allowed[c.typ] && !(len(allowed) == 0) {
				b := cloneArgs(args)
				b[name] = c.v
				return b, true
			}
		}
		return nil, false
	}},
	{"out of range", func(r resolver, args map[string]any) (map[string]any, bool) {
		var bad any
		name, _ := firstProp(r, func(p map[string]any) bool {
			p = r.resolve(p)
			if x, ok := numberOf(p["minimum"]); ok {
				bad = json.Number(fmt.Sprint(x - 1))
			} else if x, ok := numberOf(p["maximum"]); ok {
				bad = json.Number(fmt.Sprint(x + 1))
			} else if x, ok := numberOf(p["exclusiveMinimum"]); ok {
				bad = json.Number(fmt.Sprint(x))
			} else if x, ok := numberOf(p["exclusiveMaximum"]); ok {
				bad = json.Number(fmt.Sprint(x))
			} else if x, ok := numberOf(p["minLength"]); ok && x > 0 {
				bad = ""
			} else if x, ok := numberOf(p["maxLength"]); ok {
				bad = strings.Repeat("x", int(x)+1)
			} else if x, ok := numberOf(p["maxItems"]); ok {
				bad = make([]any, int(x)+1)
			} else {
				return false
			}
			return true
		})
		if name == "" {
			return nil, false
		}
		b := cloneArgs(args)
		b[name] = bad
		return b, true
	}},
	{"not in enum", func(r resolver, args map[string]any) (map[string]any, bool) {
		name, _ := firstProp(r, func(p map[string]any) bool {
			for _, alt := range append([]any{p}, anyOf(p)...) {
				if e, ok := r.resolve(alt.(map[string]any))["enum"].([]any); ok && len(e) > 0 {
					if _, isStr := e[0].(string); isStr {
						return true
					}
				}
			}
			return false
		})
		if name == "" {
			return nil, false
		}
		b := cloneArgs(args)
		b[name] = "not-a-listed-value"
		return b, true
	}},
	{"extra property", func(r resolver, args map[string]any) (map[string]any, bool) {
		if r.root["additionalProperties"] != false {
			return nil, false // Gemini has no additionalProperties
		}
		b := cloneArgs(args)
		b["__unexpected__"] = json.Number("1")
		return b, true
	}},
}

func anyOf(p map[string]any) []any {
	alts, _ := p["anyOf"].([]any)
	return alts
}

func TestSampleArguments(t *testing.T) {
	broken := map[string]int{}
	for _, c := range entries(t, testPackages(t)) {
		in, ok := inputSchemaOf(c.target, c.entry).(map[string]any)
		if !ok {
			continue // a Gemini tool without parameters
		}
		sch, err := compileAt(in, "")
		if err != nil {
			t.Errorf("%v: %v", c, err)
			continue
		}
		r := resolver{root: in}
		args := r.sample(in, 0).(map[string]any)
		if err := sch.Validate(args); err != nil {
			if strings.Contains(string(c.raw), `"pattern"`) {
				t.Logf("%v: generated sample does not meet a pattern; skipped: %v", c, err)
				continue
			}
			t.Errorf("%v: valid sample %v rejected: %v", c, args, err)
			continue
		}
		for _, br := range breakers {
			bad, ok := br.make(r, args)
			if !ok {
				continue
			}
			broken[br.name]++
			if sch.Validate(bad) == nil {
				t.Errorf("%v: %s: %v was accepted", c, br.name, bad)
			}
		}
	}
	for _, br := range breakers {
		if broken[br.name] == 0 {
			t.Errorf("no tool exercised %q", br.name)
		}
	}
}

// TestWeatherArguments: hand-written arguments for the weather tools.
func TestWeatherArguments(t *testing.T) {
	pkg := weatherModel()
	cases := []struct {
		tool   int
		target Target
		args   string
		valid  bool
	}{
		{0, JSONSchema, `{"city":"Paris"}`, true},
		{0, JSONSchema, `{"city":"Paris","unit":"fahrenheit"}`, true},
		{0, JSONSchema, `{}`, false},
		{0, JSONSchema, `{"city":42}`, false},
		{0, JSONSchema, `{"city":""}`, false},
		{0, JSONSchema, `{"city":"Paris","unit":"kelvin"}`, false},
		{0, JSONSchema, `{"city":"Paris","country":"FR"}`, false},
		{1, OpenAI, `{"city":"Paris","days":14}`, true},
		{1, OpenAI, `{"city":"Paris","days":15}`, false},
		{1, OpenAI, `{"city":"Paris","days":2.5}`, false},
		{1, OpenAIStrict, `{"city":"Paris","days":null,"unit":null}`, true},
		{1, OpenAIStrict, `{"city":"Paris","days":7,"unit":"celsius"}`, true},
		{1, OpenAIStrict, `{"city":"Paris"}`, false},
		{1, OpenAIStrict, `{"city":null,"days":null,"unit":null}`, false},
		{1, OpenAIStrict, `{"city":"Paris","days":0,"unit":null}`, false},
		{1, Gemini, `{"city":"Paris","unit":"celsius"}`, true},
		{1, Gemini, `{"city":"Paris","unit":"kelvin"}`, false},
	}
	for _, c := range cases {
		raw, err := Entry(pkg.Tools[c.tool], c.target)
		if err != nil {
			t.Fatal(err)
		}
		in := inputSchemaOf(c.target, decode(t, raw).(map[string]any))
		sch, err := compileAt(in, "")
		if err != nil {
			t.Fatal(err)
		}
		err = sch.Validate(decode(t, []byte(c.args)))
		if (err == nil) != c.valid {
			t.Errorf("%s %s %s: valid=%v, want %v (%v)", pkg.Tools[c.tool].Name, c.target, c.args, err == nil, c.valid, err)
		}
	}
}
