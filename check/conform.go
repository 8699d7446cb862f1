package check

import (
	"encoding/json"
	"fmt"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/internal/suggest"
)

// jsonValue converts any gram value to its JSON-ready Go value (string,
// json.Number, bool, []any, map[string]any). Symbols, measurements and
// ranges are not JSON values and are reported with code.
func (c *checker) jsonValue(v ast.Value, what string) (any, bool) {
	switch v := v.(type) {
	case *ast.String:
		return v.Value, true
	case *ast.TaggedString:
		return v.Value, true
	case *ast.Boolean:
		return v.Value, true
	case *ast.Number:
		n, err := numberValue(v)
		if err != nil {
			c.errorf(diag.CodeNotJSONValue, v, "%s: %v", what, err).WithDetail("JSON numbers have no unit; write the plain number and say the unit in the description.")
			return nil, false
		}
		return n, true
	case *ast.RangeValue:
		c.errorf(diag.CodeNotJSONValue, v, "%s: the range %s is not a JSON value", what, canonicalValue(v)).WithDetail("A range is a constraint (range: 1..10), not a value; write a single number.")
		return nil, false
	case *ast.Symbol:
		c.unquoted(v, what)
		return nil, false
	case *ast.Array:
		out := make([]any, 0, len(v.Elements))
		good := true
		for _, e := range v.Elements {
			x, ok := c.jsonValue(e, what)
			good = good && ok
			out = append(out, x)
		}
		return out, good
	case *ast.Map:
		out := make(map[string]any, len(v.Entries))
		good := true
		for i := range v.Entries {
			e := &v.Entries[i]
			x, ok := c.jsonValue(e.Value, what)
			good = good && ok
			out[keyName(&e.Key)] = x
		}
		return out, good
	}
	return nil, false
}

// conform converts v to a JSON-ready value of type t, reporting a mismatch
// with code. what names the value in messages ("default of parameter x").
// What only gram can write (ranges, measurements, symbols, null) is judged
// here; the value itself by conformValue, the rule CheckParamValues holds
// a value not written yet to.
func (c *checker) conform(v ast.Value, t *Type, code diag.Code, what string) (any, bool) {
	if t == nil {
		return nil, false
	}
	// Values that are never JSON get their own, more precise diagnostics.
	switch x := v.(type) {
	case *ast.RangeValue:
		return c.jsonValue(v, what)
	case *ast.Number:
		if x.Kind == ast.Measurement {
			return c.jsonValue(v, what)
		}
	case *ast.Symbol:
		switch x.Name {
		case "null", "nil", "None", "undefined":
			c.errorf(code, v, "%s cannot be %s: gram has no null", what, x.Name).WithDetail("gram has no null value. Leave the property out; a parameter without a default can be made optional with optional: true.")
			return nil, false
		}
		if t.Kind == EnumKind || t.Kind == String {
			c.unquoted(x, what)
			return nil, false
		}
		want, detail := articleType(t), "A bare word is a symbol, not a JSON value; write a value of the type."
		if t.Kind == Boolean {
			want, detail = "true or false", "Write true or false."
		}
		c.errorf(code, v, "%s must be %s, not %s", what, want, describeValue(v)).WithDetail(detail)
		return nil, false
	}
	return c.conformValue(scalarValue(v), v, t, code, what)
}

// notJSON stands for a gram number that is no JSON number (too long, or
// beyond float64's range): of no type.
type notJSON struct{}

// scalarValue is a gram scalar as a JSON-ready value (notJSON for a
// number JSON cannot hold); nil for an array or a map, whose elements
// conformValue reads from the tree.
func scalarValue(v ast.Value) any {
	switch v := v.(type) {
	case *ast.Number:
		if j, err := numberValue(v); err == nil {
			return j
		}
		return notJSON{}
	case *ast.Boolean:
		return v.Value
	}
	if s, ok := stringValue(v); ok {
		return s
	}
	return nil
}

// An item is a value to check: read from gram (n, which places and
// describes it in messages) or held by a program before it writes it as
// gram (x; n is nil).
type item struct {
	x any
	n ast.Value
}

func (c *checker) conformItem(it item, t *Type, code diag.Code, what string) (any, bool) {
	if it.n != nil {
		return c.conform(it.n, t, code, what)
	}
	return c.conformValue(it.x, nil, t, code, what)
}

// conformValue holds x, a JSON-ready value, to type t: the one rule for a
// value read from gram (n, its node: x is scalarValue(n)) and for one not
// written yet (n nil: CheckParamValues). Its messages describe the value
// as gram writes it.
func (c *checker) conformValue(x any, n ast.Value, t *Type, code diag.Code, what string) (any, bool) {
	if t == nil {
		return nil, false
	}
	given := x
	if j, ok := x.(json.Number); ok && n == nil && numberLimits(string(j), j) != nil {
		x = notJSON{} // what numberValue refuses of the number written
	}
	mismatch := func(want, detail string) (any, bool) {
		desc := describeGoValue(given)
		if n != nil {
			desc = describeValue(n)
		}
		c.errorf(code, n, "%s must be %s, not %s", what, want, desc).WithDetail(detail)
		return nil, false
	}
	j, isNum := x.(json.Number)
	_, isNotJSON := x.(notJSON)
	switch t.Kind {
	case String:
		if _, ok := x.(string); ok {
			return x, true // x, not its string: boxed once
		}
		return mismatch("a string", "Write a string in quotes, e.g. \"text\".")
	case Integer:
		switch {
		case !isNum:
			return mismatch("an integer", "Write a whole number, e.g. 3.")
		case !isIntegral(j):
			return mismatch("an integer", "Write a whole number, or change the type to Number.")
		case isDecimal(j, n):
			return mismatch("an integer", "Write a whole number without a decimal point.")
		case !fitsInt64(j):
			return mismatch("an integer from -9223372036854775808 to 9223372036854775807",
				"Integer is a 64-bit integer (int64 in generated Go, and what most JSON parsers read exactly); use Number for larger values.")
		}
		return x, true
	case Number:
		if isNum {
			return x, true
		}
		return mismatch("a number", "Write a number, e.g. 2.5.")
	case Boolean:
		if b, ok := x.(bool); ok {
			return b, true
		}
		return mismatch("true or false", "Write true or false.")
	case Object:
		if m, ok := n.(*ast.Map); ok {
			return c.jsonValue(m, what)
		}
		if m, ok := x.(map[string]any); ok && n == nil {
			return m, true
		}
		return mismatch("an object", "Write a map, e.g. {key: \"value\"}.")
	case Array:
		arr, isArr := n.(*ast.Array)
		xs, isList := x.([]any)
		if !isArr && !(isList && n == nil) {
			return mismatch("an array", "Write an array, e.g. [\"a\", \"b\"].")
		}
		size := len(xs)
		if isArr {
			size = len(arr.Elements)
		}
		out := make([]any, 0, size)
		good := true
		for i := range size {
			e := item{}
			if isArr {
				e.n = arr.Elements[i]
			} else {
				e.x = xs[i]
			}
			y, ok := c.conformItem(e, t.Elem, code, "element of "+what)
			good = good && ok
			out = append(out, y)
		}
		return out, good
	case EnumKind:
		en := t.Enum
		var y any
		if _, ok := x.(string); ok && en.ValueKind == String {
			y = x
		} else if (isNum || isNotJSON) && en.ValueKind == Integer {
			if !isNum || !isIntegral(j) {
				return mismatch("an integer value of the enum "+en.Name, "Use one of: "+jsonstr.List(en.Values)+".")
			}
			y = x
		} else {
			return mismatch("a value of the enum "+en.Name, "Use one of: "+jsonstr.List(en.Values)+".")
		}
		var names []string
		for _, e := range en.Values {
			if jsonvalue.Equal(e, y) {
				return y, true
			}
			names = append(names, fmt.Sprint(e))
		}
		d := c.errorf(code, n, "%s is %s, not a value of the enum %s", what, jsonstr.Text(y), en.Name).WithDetail("Use one of: " + jsonstr.List(en.Values) + ".")
		if s := c.suggest(fmt.Sprint(y), names); s != "" {
			d.Summary += suggest.DidYouMeanQuoted(s)
			d.Suggestion = s
			for _, e := range en.Values {
				if fmt.Sprint(e) == s {
					d.Fix = []diag.Edit{{Range: d.Range, NewText: jsonstr.Text(e)}} // the value as gram writes it
				}
			}
		}
		return nil, false
	case Record:
		return c.conformRecord(x, n, t, code, what, mismatch)
	}
	return nil, false
}

// conformRecord is conformValue of a record type: a map of its fields,
// each of its type, every required one given.
func (c *checker) conformRecord(x any, n ast.Value, t *Type, code diag.Code, what string, mismatch func(want, detail string) (any, bool)) (any, bool) {
	type entry struct {
		key string
		at  ast.Node // the key as written, nil for a value not written yet
		v   item
	}
	var entries []entry
	if m, ok := n.(*ast.Map); ok {
		for k, e := range keyed(m) {
			entries = append(entries, entry{k, e.Key, item{n: e.Value}})
		}
	} else if m, ok := x.(map[string]any); ok && n == nil {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			entries = append(entries, entry{k, nil, item{x: m[k]}})
		}
	} else {
		return mismatch("a map of the fields of "+t.Name(), "Write a map with the record's fields, e.g. {field: value}.")
	}
	td := t.Decl
	c.ensureLowered(td)
	fields := map[string]*Param{}
	var fieldNames []string
	for _, f := range td.Fields {
		if f.Name != "" {
			fields[f.Name] = f
			fieldNames = append(fieldNames, f.Name)
		}
	}
	// The map's own errors first, as it is written before its entries
	// (CheckParamValues' first error of a value is the first in the text).
	given := make(map[string]bool, len(entries))
	for _, e := range entries {
		given[e.key] = true
	}
	good := true
	for _, f := range td.Fields {
		if f.Name != "" && f.Required() && !given[f.Name] {
			c.errorf(code, n, "%s lacks the required field %s", what, f.Name).WithDetail(fmt.Sprintf("Give every required field of %s a value.", td.Name))
			good = false
		}
	}
	out := make(map[string]any, len(entries))
	for _, e := range entries {
		f, ok := fields[e.key]
		if !ok {
			d := c.errorf(code, e.at, "%s: %s has no field %s", what, td.Name, e.key).WithDetail(fmt.Sprintf("The fields of %s are: %s.", td.Name, strings.Join(fieldNames, ", ")))
			c.suggestName(d, e.key, fieldNames)
			good = false
			continue
		}
		y, ok := c.conformItem(e.v, f.Type, code, what+" field "+e.key)
		good = good && ok
		out[e.key] = y
	}
	return out, good
}

// isDecimal reports whether the number j is written with a decimal point
// (n: as written in gram; else as gram writes j).
func isDecimal(j json.Number, n ast.Value) bool {
	if num, ok := n.(*ast.Number); ok {
		return num.Kind == ast.Decimal
	}
	return strings.ContainsAny(string(j), ".eE")
}

// ecmaOnly matches regular-expression syntax that ECMA-262 (JSON Schema's
// dialect) accepts and Go's RE2 does not: lookaround and backreferences.
var ecmaOnly = regexp.MustCompile(`\(\?<?[=!]|\\[1-9]|\\k<`)

// re2Only matches syntax RE2 accepts and ECMA-262 does not: inline flags,
// \A and \z, (?P<name>...) and POSIX classes.
var re2Only = regexp.MustCompile(`\(\?[imsU-]+[):]|\\[Az]|\(\?P<|\[\[:`)

// checkPattern validates a `pattern`. It returns the compiled expression
// when Go can use it to check defaults and examples.
func (c *checker) checkPattern(n ast.Node, s string) *regexp.Regexp {
	re, err := regexp.Compile(s)
	if err != nil {
		if ecmaOnly.MatchString(s) {
			c.warnf(diag.CodePatternPortability, n, "pattern uses syntax Go's regexp does not support").WithDetail("JSON Schema validators (ECMA-262 regular expressions) accept lookaround and backreferences, but Go's RE2 does not, so gramc's runtime and generated Go code cannot check this pattern. Rewrite it without them if you can.")
			return nil
		}
		c.errorf(diag.CodeInvalidPattern, n, "pattern is not a valid regular expression").WithDetail(fmt.Sprintf("Go says: %v. Fix the regular expression (JSON Schema uses ECMA-262 syntax; gramc also requires it to compile with Go's RE2).", err))
		return nil
	}
	if re2Only.MatchString(s) {
		c.warnf(diag.CodePatternPortability, n, "pattern uses syntax JSON Schema validators do not support").WithDetail("Go accepts this, but JSON Schema validators use ECMA-262 regular expressions, which have no inline flags, \\A, \\z, (?P<name>) or [[:class:]]. Use ^ and $, (?<name>...) and explicit character classes.")
	}
	return re
}

// ensureLowered lowers a type declaration's fields if that has not been
// done yet (a record default may name a type declared later).
func (c *checker) ensureLowered(td *TypeDecl) {
	if c.lowered[td] != 0 {
		return
	}
	src, ok := c.typeSP[td]
	if !ok {
		return
	}
	file := c.file
	c.file = src.file
	c.lowerTypeDecl(src.sp, td)
	c.file = file
}
