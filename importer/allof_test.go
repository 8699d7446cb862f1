package importer_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
)

// TestRandomAllOf: a random allOf of object schemas (branches that
// declare the same property with narrower constraints, an array of free
// objects refined to an array of a record, nested objects whose fields
// add up, required in one branch only) imports as one record, and the
// schema gram emits back for it accepts and refuses the same random
// instances as the original, as santhosh-tekuri/jsonschema judges both.
// The branches are open objects (a closed branch refuses its siblings'
// properties), so the instances carry declared properties only, and
// import-open-object is the one warning allowed.
func TestRandomAllOf(t *testing.T) {
	sameInstances(t, func(seed int) randomDocument {
		g := &allOfGen{r: rand.New(rand.NewPCG(uint64(seed), 4949))}
		return randomDocument{g.document(), func(i int) any { return g.instance(i%3 == 0) }}
	}, diag.CodeImportOpenObject)
}

// allOfGen writes a random allOf of objects and instances of it. Each
// property has one kind in every branch that declares it; the branches
// differ in constraints and in which of them require it.
type allOfGen struct {
	r     *rand.Rand
	kinds map[string]string
	names []string
	// nested: the fields of a nested object property, by property
	nested map[string][]string
	// declared: the properties (and nested fields, "p.x") some branch
	// declares
	declared map[string]bool
}

var allOfKinds = []string{"string", "integer", "number", "boolean", "items", "object", "enum", "nested"}

func (g *allOfGen) document() map[string]any {
	g.kinds, g.nested, g.declared = map[string]string{}, map[string][]string{}, map[string]bool{}
	nProps := 2 + g.r.IntN(4)
	for i := range nProps {
		name := fmt.Sprintf("p%d", i)
		g.names = append(g.names, name)
		g.kinds[name] = allOfKinds[g.r.IntN(len(allOfKinds))]
		if g.kinds[name] == "object" {
			g.nested[name] = []string{"x", "y", "z"}[:1+g.r.IntN(3)]
		}
	}
	var branches []any
	for range 2 + g.r.IntN(2) {
		branches = append(branches, g.branch())
	}
	return map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"title":   "Root",
		"allOf":   branches,
		"$defs": map[string]any{"Item": map[string]any{
			"type": "object", "additionalProperties": false, "required": []any{"id"},
			"properties": map[string]any{"id": map[string]any{"type": "integer"}, "label": map[string]any{"type": "string"}},
		}},
	}
}

// branch declares some of the properties, each with random constraints.
func (g *allOfGen) branch() map[string]any {
	props := map[string]any{}
	var required []any
	for _, name := range g.names {
		if g.r.IntN(3) == 0 {
			continue
		}
		props[name] = g.property(name)
		g.declared[name] = true
		if g.r.IntN(3) == 0 {
			required = append(required, name)
		}
	}
	if len(props) == 0 { // a record has a field
		props[g.names[0]] = g.property(g.names[0])
		g.declared[g.names[0]] = true
	}
	b := map[string]any{"properties": props}
	if g.r.IntN(2) == 0 {
		b["type"] = "object"
	}
	if len(required) > 0 {
		b["required"] = required
	}
	return b
}

func (g *allOfGen) property(name string) map[string]any {
	s := map[string]any{}
	switch k := g.kinds[name]; k {
	case "string":
		s["type"] = "string"
		if g.r.IntN(2) == 0 {
			s["minLength"] = g.r.IntN(3)
		}
		if g.r.IntN(2) == 0 {
			s["maxLength"] = 2 + g.r.IntN(5)
		}
	case "integer", "number":
		s["type"] = k
		if g.r.IntN(2) == 0 {
			s["minimum"] = g.r.IntN(40)
		}
		if g.r.IntN(2) == 0 {
			s["maximum"] = 50 + g.r.IntN(50)
		}
		if g.r.IntN(4) == 0 {
			s["exclusiveMinimum"] = g.r.IntN(30)
		}
	case "boolean":
		s["type"] = "boolean"
	case "nested":
		// an allOf inside: a type beside it, or in a branch, and
		// branches of constraints only
		branches := []any{map[string]any{"maximum": 40 + g.r.IntN(60)}, map[string]any{"minimum": g.r.IntN(30)}}
		if g.r.IntN(2) == 0 {
			s["type"] = "integer"
		} else {
			branches = append(branches, map[string]any{"type": "integer", "exclusiveMaximum": 50 + g.r.IntN(50)})
		}
		s["allOf"] = branches
	case "enum":
		// subsets sharing "c": the branches' enumerations intersect
		all := []any{"a", "b", "d", "e"}
		g.r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		s["type"] = "string"
		vals := append([]any{"c"}, all[:1+g.r.IntN(3)]...)
		slices.SortFunc(vals, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
		s["enum"] = vals
	case "items":
		// the generic wrapper's array of objects, or its refinement
		s["type"] = "array"
		if g.r.IntN(2) == 0 {
			s["items"] = map[string]any{"type": "object"}
		} else {
			s["items"] = map[string]any{"$ref": "#/$defs/Item"}
		}
		if g.r.IntN(3) == 0 {
			s["maxItems"] = 1 + g.r.IntN(3)
		}
	case "object":
		s["type"] = "object"
		if g.r.IntN(3) > 0 {
			fields := map[string]any{}
			for _, f := range g.nested[name] {
				if g.r.IntN(2) == 0 {
					fields[f] = map[string]any{"type": "integer", "maximum": 10 + g.r.IntN(10)}
					g.declared[name+"."+f] = true
				}
			}
			s["properties"] = fields
		}
	}
	if g.r.IntN(3) == 0 {
		s["description"] = "A value of " + name
	}
	return s
}

// instance is a random value of declared properties only, valid often;
// broken, some value has the wrong type.
func (g *allOfGen) instance(broken bool) map[string]any {
	out := map[string]any{}
	for _, name := range g.names {
		if !g.declared[name] || g.r.IntN(4) == 0 {
			continue
		}
		out[name] = g.value(g.kinds[name], name)
	}
	if broken && len(out) > 0 {
		for k := range out {
			out[k] = []any{"wrong"}
			if g.kinds[k] == "items" {
				out[k] = "wrong"
			}
			break
		}
	}
	return out
}

func (g *allOfGen) value(kind, name string) any {
	if kind == "nested" {
		kind = "integer"
	}
	if v, ok := randomScalar(g.r, kind); ok {
		return v
	}
	switch kind {
	case "string":
		return strings.Repeat("s", g.r.IntN(9))
	case "enum":
		return string(rune('a' + g.r.IntN(5)))
	case "items":
		var out []any
		for range g.r.IntN(4) {
			e := map[string]any{}
			if g.r.IntN(6) > 0 {
				e["id"] = g.r.IntN(9)
			}
			if g.r.IntN(2) == 0 {
				e["label"] = "l"
			}
			out = append(out, e)
		}
		return out
	case "object":
		o := map[string]any{}
		for _, f := range g.nested[name] {
			if g.declared[name+"."+f] && g.r.IntN(2) == 0 {
				o[f] = g.r.IntN(25)
			}
		}
		return o
	}
	return nil
}
