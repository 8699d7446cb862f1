package importer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/importer"
)

// TestRandomJSONSchemas: a random JSON Schema within gram's reach (closed
// objects, scalars with their constraints, arrays, enumerations and
// records as $defs, recursion through optional fields) imports without a
// warning, and the schema gram emits back for it accepts and refuses the
// same random instances as the original. Both are compiled and applied by
// santhosh-tekuri/jsonschema, not by gramc's own code.
func TestRandomJSONSchemas(t *testing.T) {
	sameInstances(t, func(seed int) randomDocument {
		g := &schemaGen{r: rand.New(rand.NewPCG(uint64(seed), 3838)), defs: map[string]any{}}
		src := g.document()
		return randomDocument{src, func(i int) any {
			inst := g.instance(src, 0)
			if i%3 == 0 {
				inst = g.mutate(inst)
			}
			return inst
		}}
	})
}

// A randomDocument is a random JSON Schema and its i-th random instance.
type randomDocument struct {
	schema   map[string]any
	instance func(i int) any
}

// sameInstances imports random documents (of gen, a seed each), the
// warnings of allowed codes only; the schema gram emits back for the
// root type (Root, as a tool's result: its output schema is the record
// itself, with its $defs) must accept and refuse the same random
// instances as the original. Both are compiled and applied by
// santhosh-tekuri/jsonschema, not by gramc's own code, and both outcomes
// must be exercised, or the test proves nothing.
func sameInstances(t *testing.T, gen func(seed int) randomDocument, allowed ...diag.Code) {
	n := 200
	if testing.Short() {
		n = 40
	}
	valid, invalid := 0, 0
	for seed := range n {
		doc := gen(seed)
		data, err := json.MarshalIndent(doc.schema, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		res, err := importer.Import([]importer.Source{{Name: "root.schema.json", Data: data}})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, data)
		}
		for _, w := range res.Warnings {
			if !slices.Contains(allowed, w.Code) {
				t.Fatalf("seed %d: the import warns: %v\n%s", seed, w, data)
			}
		}
		probe := string(res.Gram) + "\n[probe:Tool {description: \"Probe\"} | (::Root)]\n"
		pkg, ds := checkText(t, "probe.gram", probe)
		if len(ds) > 0 {
			t.Fatalf("seed %d: %v\n%s", seed, ds, probe)
		}
		out, err := schema.Output(pkg.Tools[len(pkg.Tools)-1])
		if err != nil {
			t.Fatal(err)
		}
		orig, back := compile(t, data), compile(t, out)
		for i := range 60 {
			inst := doc.instance(i)
			a, b := orig.Validate(inst) == nil, back.Validate(inst) == nil
			if a != b {
				raw, _ := json.Marshal(inst)
				t.Fatalf("seed %d: the instance %s is valid %v against the original, %v against what gram emits back\n--- original\n%s\n--- gram\n%s\n--- emitted\n%s", seed, raw, a, b, data, res.Gram, out)
			}
			if a {
				valid++
			} else {
				invalid++
			}
		}
	}
	t.Logf("%d instances valid against both, %d invalid against both", valid, invalid)
	if valid < n*5 || invalid < n*5 {
		t.Fatalf("%d valid and %d invalid instances: the generator is broken", valid, invalid)
	}
}

func compile(t *testing.T, data []byte) *sjs.Schema {
	t.Helper()
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := sjs.NewCompiler()
	c.DefaultDraft(sjs.Draft2020)
	if err := c.AddResource("mem://root.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://root.json")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return s
}

// schemaGen writes random schemas within gram's reach, and instances of
// them.
type schemaGen struct {
	r     *rand.Rand
	defs  map[string]any
	order []string
	root  map[string]any
}

func (g *schemaGen) document() map[string]any {
	nDefs := g.r.IntN(4)
	for i := range nDefs {
		name := fmt.Sprintf("D%d", i)
		if g.r.IntN(3) == 0 {
			vals := []any{"red", "green", fmt.Sprintf("v%d", i)}
			if g.r.IntN(2) == 0 {
				g.defs[name] = map[string]any{"type": "integer", "enum": []any{1, 2, 3 + i}}
			} else {
				g.defs[name] = map[string]any{"type": "string", "enum": vals, "description": "An enumeration"}
			}
		} else {
			g.defs[name] = nil // placeholder: may refer to itself
			g.order = append(g.order, name)
			g.defs[name] = g.object(1, name)
		}
	}
	g.root = g.object(0, "")
	g.root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	g.root["title"] = "Root"
	if len(g.defs) > 0 {
		g.root["$defs"] = g.defs
	}
	return g.root
}

// object is a closed object; in a definition (self != ""), a property
// may refer to the definition itself, optionally.
func (g *schemaGen) object(depth int, self string) map[string]any {
	props := map[string]any{}
	var required []any
	n := 1 + g.r.IntN(5)
	for i := range n {
		name := fmt.Sprintf("p%d", i)
		if g.r.IntN(5) == 0 {
			name = fmt.Sprintf("k-%d.x", i) // a name gram quotes
		}
		s := g.schema(depth+1, self)
		req := g.r.IntN(2) == 0
		if ref, ok := s["$ref"].(string); ok && self != "" && strings.HasSuffix(ref, "/"+self) {
			req = false // recursion through an optional field
		}
		props[name] = s
		if req {
			required = append(required, name)
		}
	}
	o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	if g.r.IntN(3) == 0 {
		o["description"] = "An object"
	}
	return o
}

func (g *schemaGen) schema(depth int, self string) map[string]any {
	kinds := []string{"string", "integer", "number", "boolean", "array"}
	if len(g.defs) > 0 {
		kinds = append(kinds, "ref", "ref")
	}
	if depth < 3 {
		kinds = append(kinds, "object")
	}
	s := map[string]any{}
	switch k := kinds[g.r.IntN(len(kinds))]; k {
	case "string":
		s["type"] = "string"
		switch g.r.IntN(5) {
		case 0:
			s["enum"] = []any{"a", "bb", "c c"}
		case 1:
			s["minLength"] = 1
			s["maxLength"] = 3 + g.r.IntN(5)
		case 2:
			s["pattern"] = "^[a-c]+$"
		case 3:
			s["format"] = "email"
		}
	case "integer", "number":
		s["type"] = k
		switch g.r.IntN(4) {
		case 0:
			s["minimum"] = g.r.IntN(20)
			s["maximum"] = 50 + g.r.IntN(50)
		case 1:
			s["exclusiveMinimum"] = 0
			s["exclusiveMaximum"] = 100.5
		case 2:
			s["enum"] = []any{1, 5, 50}
		}
	case "boolean":
		s["type"] = "boolean"
	case "array":
		s["type"] = "array"
		s["items"] = g.item(depth+1, self)
		if g.r.IntN(2) == 0 {
			s["minItems"] = 1
			s["maxItems"] = 3
		}
		if g.r.IntN(3) == 0 {
			s["uniqueItems"] = true
		}
	case "ref":
		names := make([]string, 0, len(g.defs))
		for name, d := range g.defs {
			if d != nil || name == self {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			s["type"] = "string"
			break
		}
		slices.Sort(names)
		s["$ref"] = "#/$defs/" + names[g.r.IntN(len(names))]
	case "object":
		return g.object(depth, self)
	}
	if g.r.IntN(3) == 0 {
		s["description"] = "A value"
	}
	return s
}

// item is an array's element schema within gram's reach: a type, with no
// constraint but a string or integer enumeration (an :Enum).
func (g *schemaGen) item(depth int, self string) map[string]any {
	for {
		s := g.schema(depth, self)
		switch {
		case s["type"] == "array":
			continue
		case s["type"] == "object" || s["$ref"] != nil:
			return s
		}
		out := map[string]any{"type": s["type"]}
		if e, ok := s["enum"]; ok && (s["type"] == "string" || s["type"] == "integer") {
			out["enum"] = e
		}
		return out
	}
}

// randomScalar is a random value of an integer, number or boolean schema
// for the generators' instances, around the bounds their schemas draw
// (false for another kind).
func randomScalar(r *rand.Rand, kind string) (any, bool) {
	switch kind {
	case "integer":
		return r.IntN(120) - 10, true
	case "number":
		return float64(r.IntN(2400))/20 - 10, true
	case "boolean":
		return r.IntN(2) == 0, true
	}
	return nil, false
}

// instance is a random value shaped by s, valid more often than not.
func (g *schemaGen) instance(s map[string]any, depth int) any {
	if ref, ok := s["$ref"].(string); ok {
		return g.instance(g.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any), depth+1)
	}
	if e, ok := s["enum"].([]any); ok && g.r.IntN(8) != 0 {
		return e[g.r.IntN(len(e))]
	}
	kind, _ := s["type"].(string)
	if v, ok := randomScalar(g.r, kind); ok {
		return v
	}
	switch kind {
	case "string":
		letters := "abc c@x."
		n := g.r.IntN(7)
		var b strings.Builder
		for range n {
			b.WriteByte(letters[g.r.IntN(len(letters))])
		}
		return b.String()
	case "array":
		n := g.r.IntN(4)
		if depth > 6 {
			n = 0
		}
		out := []any{}
		for range n {
			out = append(out, g.instance(s["items"].(map[string]any), depth+1))
		}
		return out
	case "object":
		out := map[string]any{}
		req := map[string]bool{}
		if r, ok := s["required"].([]any); ok {
			for _, k := range r {
				req[k.(string)] = true
			}
		}
		// In the order of the names, so that a seed makes one instance.
		props := s["properties"].(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(props)) {
			if req[k] && g.r.IntN(12) != 0 || !req[k] && depth < 5 && g.r.IntN(2) == 0 {
				out[k] = g.instance(props[k].(map[string]any), depth+1)
			}
		}
		if g.r.IntN(15) == 0 {
			out["extra"] = 1
		}
		return out
	}
	return nil
}

// mutate breaks a value somewhere: a wrong type, an extra property.
func (g *schemaGen) mutate(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if g.r.IntN(2) == 0 {
				v[k] = g.mutate(v[k])
				return v
			}
		}
		v["zzz"] = "extra"
		return v
	case []any:
		if len(v) > 0 {
			v[0] = g.mutate(v[0])
			return v
		}
		return append(v, nil)
	case string:
		return 7
	}
	return "x"
}
