package typescript

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// instanceGen makes JSON instances of a JSON Schema (the subset gramc
// emits: type, properties, required, additionalProperties, $ref into
// $defs, enum, the numeric bounds, lengths, pattern, items and their
// counts, uniqueness), aiming at valid ones and then, half the time,
// breaking one place: the three validators' verdicts are compared, so the
// generator needs no verdict of its own, only a good mix.
type instanceGen struct {
	r    *rand.Rand
	root map[string]any
}

func (g *instanceGen) resolve(s map[string]any) map[string]any {
	for i := 0; i < 32; i++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name := strings.TrimPrefix(ref, "#/$defs/")
		if ref == "#" {
			s = g.root
			continue
		}
		defs, _ := g.root["$defs"].(map[string]any)
		next, _ := defs[name].(map[string]any)
		if next == nil {
			return map[string]any{}
		}
		// Keep the referring schema's siblings (a default) out: they do
		// not constrain.
		s = next
	}
	return s
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// strings that patterns are tried against, besides random ones.
var stringPool = []string{"", "a", "abc", "AB", "ABCD", "LFPG", "x1", "xy", "555-1234", "5551234", "b", "c d", "hello",
	"red", "green", "blue", "dark blue", "x-y", "celsius", "fahrenheit", "é", "éé", "😀", "😀😀😀", "a\nb", "2024-01-02", "ABCDE", "ab1"}

// bounds are a schema's bounds on a length (minKey and maxKey, such as
// minLength and maxLength), lo and hi when it has none, hi at least lo.
func bounds(s map[string]any, minKey, maxKey string, lo, hi int) (int, int) {
	if v, ok := num(s[minKey]); ok {
		lo = int(v)
	}
	if v, ok := num(s[maxKey]); ok {
		hi = int(v)
	}
	return lo, max(lo, hi)
}

func (g *instanceGen) str(s map[string]any) string {
	lo, hi := bounds(s, "minLength", "maxLength", 0, 6)
	if p, ok := s["pattern"].(string); ok {
		re, err := regexp.Compile(p)
		if err == nil {
			var matches []string
			for _, c := range stringPool {
				if re.MatchString(c) {
					n := len([]rune(c))
					if n >= lo && n <= hi {
						matches = append(matches, c)
					}
				}
			}
			if len(matches) > 0 && g.r.Intn(5) > 0 {
				return matches[g.r.Intn(len(matches))]
			}
		}
	}
	if g.r.Intn(4) == 0 {
		return stringPool[g.r.Intn(len(stringPool))]
	}
	alphabet := []rune("abcXYZ019 é😀-")
	n := lo + g.r.Intn(hi-lo+1)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(alphabet[g.r.Intn(len(alphabet))])
	}
	return b.String()
}

func (g *instanceGen) number(s map[string]any, integer bool) any {
	lo, hi := -20.0, 20.0
	if v, ok := num(s["minimum"]); ok {
		lo = v
	}
	if v, ok := num(s["exclusiveMinimum"]); ok {
		lo = v
		if integer {
			lo = math.Floor(v) + 1
		} else {
			lo = v + 0.25
		}
	}
	if v, ok := num(s["maximum"]); ok {
		hi = v
	}
	if v, ok := num(s["exclusiveMaximum"]); ok {
		hi = v
		if integer {
			hi = math.Ceil(v) - 1
		} else {
			hi = v - 0.25
		}
	}
	if hi < lo {
		hi = lo
	}
	// Now and then a bound itself, exactly.
	switch g.r.Intn(6) {
	case 0:
		if v, ok := s["minimum"].(json.Number); ok {
			return v
		}
	case 1:
		if v, ok := s["maximum"].(json.Number); ok {
			return v
		}
	}
	if integer {
		n := int64(lo) + g.r.Int63n(int64(hi-lo)+1)
		if g.r.Intn(8) == 0 {
			return json.Number(strconv.FormatInt(n, 10) + ".0") // an integer to JSON Schema
		}
		return json.Number(strconv.FormatInt(n, 10))
	}
	f := lo + float64(g.r.Intn(int((hi-lo)*4)+1))/4
	return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
}

// valid aims at a valid instance of s.
func (g *instanceGen) valid(s map[string]any, depth int) any {
	if depth > 8 {
		return nil // a record that requires itself has no finite value
	}
	s = g.resolve(s)
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[g.r.Intn(len(e))]
	}
	typ, _ := s["type"].(string)
	switch typ {
	case "string":
		return g.str(s)
	case "integer":
		return g.number(s, true)
	case "number":
		return g.number(s, false)
	case "boolean":
		return g.r.Intn(2) == 0
	case "array":
		lo, hi := bounds(s, "minItems", "maxItems", 0, 3)
		if depth > 3 {
			hi = lo
		}
		n := lo + g.r.Intn(hi-lo+1)
		items, _ := s["items"].(map[string]any)
		out := []any{}
		for i := 0; i < n; i++ {
			if items == nil {
				out = append(out, json.Number(strconv.Itoa(g.r.Intn(5))))
				continue
			}
			out = append(out, g.valid(items, depth+1))
		}
		return out
	case "object":
		props, _ := s["properties"].(map[string]any)
		if props == nil {
			// A free-form object.
			m := map[string]any{}
			for i := 0; i < g.r.Intn(3); i++ {
				m[fmt.Sprintf("k%d", i)] = json.Number(strconv.Itoa(i))
			}
			return m
		}
		required := map[string]bool{}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				required[r.(string)] = true
			}
		}
		m := map[string]any{}
		for _, k := range slices.Sorted(maps.Keys(props)) {
			if required[k] || (depth < 3 && g.r.Intn(2) == 0) {
				m[k] = g.valid(props[k].(map[string]any), depth+1)
			}
		}
		return m
	}
	return nil
}

// breakOne changes one place of v (an instance of s) in a way likely to
// make it invalid: a value of another type, a bound crossed, a length or
// count off by one, a required property removed, an unknown one added.
func (g *instanceGen) breakOne(s map[string]any, v any) any {
	s = g.resolve(s)
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		keys := slices.Sorted(maps.Keys(x))
		if len(keys) > 0 && props != nil && g.r.Intn(3) > 0 {
			k := keys[g.r.Intn(len(keys))]
			if ps, ok := props[k].(map[string]any); ok {
				c := copyMap(x)
				c[k] = g.breakOne(ps, x[k])
				return c
			}
		}
		c := copyMap(x)
		switch {
		case len(keys) > 0 && g.r.Intn(2) == 0:
			delete(c, keys[g.r.Intn(len(keys))])
		default:
			c["unexpected"] = json.Number("1")
		}
		return c
	case []any:
		if len(x) > 0 && g.r.Intn(2) == 0 {
			items, _ := s["items"].(map[string]any)
			c := append([]any(nil), x...)
			i := g.r.Intn(len(x))
			if items != nil {
				c[i] = g.breakOne(items, x[i])
			} else {
				c[i] = "?"
			}
			return c
		}
		if len(x) > 0 && g.r.Intn(2) == 0 {
			return append(append([]any(nil), x...), x[0]) // a duplicate, one more
		}
		return x[:0:0]
	case string:
		switch g.r.Intn(4) {
		case 0:
			return x + "😀"
		case 1:
			if x != "" {
				return string([]rune(x)[1:])
			}
			return "Z"
		case 2:
			return json.Number("3")
		}
		return x + "Q"
	case json.Number:
		f, _ := x.Float64()
		switch g.r.Intn(5) {
		case 0:
			return json.Number(strconv.FormatFloat(f+0.5, 'f', -1, 64))
		case 1:
			return json.Number(strconv.FormatFloat(f+1000, 'f', -1, 64))
		case 2:
			return json.Number(strconv.FormatFloat(f-1000, 'f', -1, 64))
		case 3:
			return x.String()
		}
		return json.Number(strconv.FormatFloat(f+1, 'f', -1, 64))
	case bool:
		if g.r.Intn(2) == 0 {
			return !x
		}
		return "true"
	case nil:
		return json.Number("0")
	}
	return nil
}

func copyMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// instances returns n instances of the schema (JSON text): about half
// aimed valid, the rest broken in one place.
func instances(r *rand.Rand, schemaText []byte, n int) ([]json.RawMessage, error) {
	d := json.NewDecoder(strings.NewReader(string(schemaText)))
	d.UseNumber()
	var root map[string]any
	if err := d.Decode(&root); err != nil {
		return nil, err
	}
	g := &instanceGen{r: r, root: root}
	var out []json.RawMessage
	for i := 0; i < n; i++ {
		v := g.valid(root, 0)
		if i%2 == 1 {
			v = g.breakOne(root, v)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, nil
}
