package importer

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/camel"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"github.com/gramc-dev/gramc/internal/limits"
)

// param reads a property (a parameter or a field) of schema s.
func (im *importer) param(name string, s *node, required bool, hint string, depth int) *param {
	p := &param{name: name, at: s, src: im.s, props: map[string]*node{}}
	if s.Kind != jsonvalue.Object && s.Kind != jsonvalue.Bool {
		im.s.fail(s, "the schema of %s is an object (or true or false), not %s", jsonstr.Text(name), kindName(s))
	}
	t, chain := im.typ(s, hint, depth)
	p.typ = t
	null := s.Kind == jsonvalue.Object && nullable(s)
	for _, c := range chain {
		if nullable(c) {
			null = true
		}
	}
	first := func(key string) *node {
		for _, c := range chain {
			if v := c.Get(key); v != nil {
				return v
			}
		}
		return nil
	}
	if d := first("description"); d != nil {
		if d.Kind != jsonvalue.String {
			im.s.fail(d, "\"description\" is a string, not %s", kindName(d))
		}
		p.description = im.prose(d, d.Str)
		p.props["description"] = d
	}
	if d := first("deprecated"); d != nil {
		if d.Kind != jsonvalue.Bool {
			im.s.fail(d, "\"deprecated\" is a boolean, not %s", kindName(d))
		}
		p.deprecated = d.Bool
		p.props["deprecated"] = d
	}
	if d := first("default"); d != nil {
		switch {
		case d.Kind == jsonvalue.Null && null:
			// the default of a nullable value is "not given"
		default:
			if v, ok := im.value(d, "default"); ok {
				p.def, p.hasDef = v, true
				p.props["default"] = d
			}
		}
	}
	if ex := first("examples"); ex != nil {
		if ex.Kind != jsonvalue.Array {
			im.s.fail(ex, "\"examples\" is an array, not %s", kindName(ex))
		}
		for _, e := range ex.Arr {
			if e.Kind == jsonvalue.Null && null {
				continue
			}
			if v, ok := im.value(e, "example"); ok {
				p.examples = append(p.examples, v)
			}
		}
		p.props["examples"] = ex
	} else if ex := first("example"); ex != nil && !(ex.Kind == jsonvalue.Null && null) {
		if v, ok := im.value(ex, "example"); ok {
			p.examples = []any{v}
			p.props["examples"] = ex
		}
	}
	im.constraints(p, chain, first)
	p.optional = !required
	switch {
	case required && null && !im.strictTool:
		p.optional = true
		im.warn(diag.CodeImportMadeOptional, s, fmt.Sprintf("%s is required and admits null; gram makes it optional", jsonstr.Text(name)),
			"gram has no null: a value that may be null is written as an optional one, left out instead of sent as null (gramc's openai-strict target writes it back as a required nullable property).")
	case required && null:
		p.optional = true // OpenAI strict: how an optional parameter is written
	case required && p.hasDef:
		im.warn(diag.CodeImportMadeOptional, p.props["default"], fmt.Sprintf("%s is required and has a default; gram makes it optional", jsonstr.Text(name)),
			"In gram a default makes a parameter optional (it is left out of required); a caller may now leave it out, and the default applies.")
	}
	return p
}

// constraints reads the validation keywords that apply to p's type.
func (im *importer) constraints(p *param, chain []*node, first func(string) *node) {
	c := &p.c
	c0 := c
	kind := p.typ.kind
	numeric := kind == check.Integer || kind == check.Number
	for _, key := range []string{"enum", "const"} {
		v := first(key)
		if v == nil {
			continue
		}
		var vals []*node
		if key == "enum" {
			if v.Kind != jsonvalue.Array {
				im.s.fail(v, "\"enum\" is an array, not %s", kindName(v))
			}
			if im.tooManyValues(v) {
				continue
			}
			vals = v.Arr
		} else {
			vals = []*node{v}
		}
		if kind != check.String && !numeric {
			if kind == check.EnumKind {
				continue // a named enum's values are its declaration's
			}
			im.warn(diag.CodeImportUnsupportedKeyword, v, fmt.Sprintf("%s on a %s is dropped", key, p.typ.kind),
				"gram allows enum on String, Integer and Number only; the values are not restricted. Check them in the tool.")
			continue
		}
		list := []any{}
		for _, e := range vals {
			switch {
			case kind == check.String && e.Kind == jsonvalue.String:
				list = append(list, im.text(e, e.Str))
			case numeric && e.Kind == jsonvalue.Number:
				n, ok := plainNumber(string(e.Num))
				if !ok {
					im.warn(diag.CodeImportInvalidValue, e, fmt.Sprintf("the number %s is too long for gram; dropped", termNumber(string(e.Num))), fmt.Sprintf("gram numbers are at most %d characters written out.", limits.MaxNumberLength))
					continue
				}
				if kind == check.Integer && strings.Contains(n, ".") {
					continue // the type refuses it already
				}
				list = append(list, json.Number(n))
			}
			// any other value is refused by the type already
		}
		if len(list) == 0 {
			im.warn(diag.CodeImportInvalidValue, v, fmt.Sprintf("%s admits no %s value; dropped", key, p.typ.kind),
				"None of the values is of the parameter's type, so no value is valid. The restriction is dropped; fix the schema.")
			continue
		}
		c.Enum = dedupe(list)
		p.props["enum"] = v
		c.Enum = im.intersectEnums(c.Enum, chain, v)
		break
	}
	if numeric {
		// Every schema of the chain applies (a reference's siblings, an
		// allOf's branches): the tightest bound of each keyword is kept.
		for _, c := range chain {
			for _, key := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
				v := c.Get(key)
				if v == nil {
					continue
				}
				if v.Kind == jsonvalue.Bool && strings.HasPrefix(key, "exclusive") {
					continue // OpenAPI 3.0's boolean form, read with the bound below
				}
				if v.Kind != jsonvalue.Number {
					im.s.fail(v, "%q is a number, not %s", key, kindName(v))
				}
				n, ok := plainNumber(string(v.Num))
				if !ok {
					im.warn(diag.CodeImportInvalidValue, v, fmt.Sprintf("the number %s is too long for gram; dropped", termNumber(string(v.Num))), fmt.Sprintf("gram numbers are at most %d characters written out.", limits.MaxNumberLength))
					continue
				}
				num := json.Number(n)
				// OpenAPI 3.0 (draft 4): exclusiveMinimum: true makes minimum exclusive.
				if ex := c.Get("exclusive" + camel.Case(key)); (key == "minimum" || key == "maximum") && ex != nil && ex.Kind == jsonvalue.Bool && ex.Bool {
					key = "exclusive" + camel.Case(key)
				}
				for _, b := range bounds(c0) {
					if b.key == key && (*b.to == nil || tighter(num, **b.to, strings.HasSuffix(key, "inimum"))) {
						*b.to = &num
						p.props[key] = v
					}
				}
			}
		}
	}
	for _, k := range sizes(c0) {
		for _, ch := range chain {
			v := ch.Get(k.key)
			if v == nil || kind != k.kind {
				continue // a keyword of another type constrains nothing here
			}
			n, ok := count(v)
			if !ok {
				im.s.fail(v, "%q is a non-negative integer, not %s", k.key, kindName(v))
			}
			if *k.to == nil || strings.HasPrefix(k.key, "min") && n > **k.to || strings.HasPrefix(k.key, "max") && n < **k.to {
				*k.to = &n
				p.props[k.key] = v
			}
		}
	}
	if kind == check.String {
		if v := first("pattern"); v != nil {
			if v.Kind != jsonvalue.String {
				im.s.fail(v, "\"pattern\" is a string, not %s", kindName(v))
			}
			if strings.IndexByte(v.Str, 0) >= 0 {
				im.warn(diag.CodeImportInvalidValue, v, "a pattern with a NUL character cannot be written in gram; dropped", "A gram document cannot hold U+0000.")
			} else {
				c.Pattern = v.Str
				p.props["pattern"] = v
			}
		}
	}
	if v := first("format"); v != nil {
		if v.Kind != jsonvalue.String {
			im.s.fail(v, "\"format\" is a string, not %s", kindName(v))
		}
		switch {
		case kind == check.String && isFormat(v.Str):
			c.Format = v.Str
			p.props["format"] = v
		case kind == check.Integer && v.Str == "int64", kind == check.Number && v.Str == "double":
			// what gram's Integer and Number are
		case kind == check.String || numeric:
			im.warn(diag.CodeImportFormat, v, fmt.Sprintf("format %s is dropped: gram knows %s", jsonstr.Text(v.Str), strings.Join(gramFormats(kind), ", ")),
				"The format is not checked, nor told to the model. Describe it in the description if the model needs it.")
		}
	}
	if kind == check.Array {
		for _, ch := range chain {
			v := ch.Get("uniqueItems")
			if v == nil {
				continue
			}
			if v.Kind != jsonvalue.Bool {
				im.s.fail(v, "\"uniqueItems\" is a boolean, not %s", kindName(v))
			}
			if v.Bool || !c.UniqueItems {
				c.UniqueItems = v.Bool
				p.props["uniqueItems"] = v
			}
		}
	}
}

func gramFormats(kind check.Kind) []string {
	switch kind {
	case check.Integer:
		return []string{"int64 (Integer is 64-bit)"}
	case check.Number:
		return []string{"double (Number is a float64)"}
	}
	return check.Formats()
}

func isFormat(f string) bool {
	for _, g := range check.Formats() {
		if g == f {
			return true
		}
	}
	return false
}

// count reads a non-negative integer.
func count(v *node) (int64, bool) {
	if v.Kind != jsonvalue.Number {
		return 0, false
	}
	p, ok := plainNumber(string(v.Num))
	if !ok || strings.Contains(p, ".") || strings.HasPrefix(p, "-") || len(p) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range p {
		n = n*10 + int64(c-'0')
	}
	return n, true
}

func termNumber(s string) string {
	if len(s) > 40 {
		return s[:20] + "..." + s[len(s)-10:]
	}
	return s
}

// A bound is a number bound's keyword and its field in c.
type bound struct {
	key string
	to  **json.Number
}

// bounds are c's number bounds, in the order gram writes them.
func bounds(c *check.Constraints) [4]bound {
	return [...]bound{{"minimum", &c.Minimum}, {"exclusiveMinimum", &c.ExclusiveMinimum}, {"maximum", &c.Maximum}, {"exclusiveMaximum", &c.ExclusiveMaximum}}
}

// A size is a length's or an item count's keyword, the kind of value it
// constrains and its field in c.
type size struct {
	key  string
	kind check.Kind
	to   **int64
}

// sizes are c's lengths and item counts, in the order gram writes them.
func sizes(c *check.Constraints) [4]size {
	return [...]size{{"minLength", check.String, &c.MinLength}, {"maxLength", check.String, &c.MaxLength}, {"minItems", check.Array, &c.MinItems}, {"maxItems", check.Array, &c.MaxItems}}
}

// tighter reports whether bound a is tighter than b: greater for a lower
// bound, smaller for an upper one.
func tighter(a, b json.Number, lower bool) bool {
	x, okx := new(big.Rat).SetString(string(a))
	y, oky := new(big.Rat).SetString(string(b))
	if !okx || !oky {
		return false
	}
	if lower {
		return x.Cmp(y) > 0
	}
	return x.Cmp(y) < 0
}

// intersectEnums keeps the values of list that every other enum and
// const of the chain (besides from) admits too: all of them apply.
func (im *importer) intersectEnums(list []any, chain []*node, from *node) []any {
	for _, c := range chain {
		for _, key := range []string{"enum", "const"} {
			v := c.Get(key)
			if v == nil || v == from {
				continue
			}
			vals := []*node{v}
			if key == "enum" {
				if v.Kind != jsonvalue.Array {
					continue
				}
				vals = v.Arr
			}
			admitted := map[string]bool{}
			for _, e := range vals {
				admitted[enumKey(e)] = true
			}
			list = slices.DeleteFunc(list, func(x any) bool { return !admitted[anyKey(x)] })
		}
	}
	if len(list) == 0 {
		im.warn(diag.CodeImportAllOf, from, "the enumerations of allOf admit no common value; dropped",
			"Every branch of an allOf applies, and no value is in all of their enumerations. The restriction is dropped; fix the schema.")
		return nil
	}
	return list
}

// enumKey and anyKey compare a document's value with one read from it.
func enumKey(e *node) string {
	switch e.Kind {
	case jsonvalue.String:
		return "s:" + e.Str
	case jsonvalue.Number:
		if r, ok := new(big.Rat).SetString(string(e.Num)); ok {
			return "n:" + r.RatString()
		}
	}
	return "?"
}

func anyKey(x any) string {
	switch x := x.(type) {
	case string:
		return "s:" + strings.ReplaceAll(x, "\uFFFD", "\x00")
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(x)); ok {
			return "n:" + r.RatString()
		}
	}
	return "?"
}
