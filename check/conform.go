package check

import (
	"fmt"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"regexp"
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
func (c *checker) conform(v ast.Value, t *Type, code diag.Code, what string) (any, bool) {
	if t == nil {
		return nil, false
	}
	mismatch := func(want, detail string) (any, bool) {
		c.errorf(code, v, "%s must be %s, not %s", what, want, describeValue(v)).WithDetail(detail)
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
		if t.Kind == Boolean {
			return mismatch("true or false", "Write true or false.")
		}
		return mismatch(articleType(t), "A bare word is a symbol, not a JSON value; write a value of the type.")
	}
	switch t.Kind {
	case String:
		if s, ok := stringValue(v); ok {
			return s, true
		}
		return mismatch("a string", "Write a string in quotes, e.g. \"text\".")
	case Integer:
		if n, ok := v.(*ast.Number); ok {
			j, err := numberValue(n)
			if err == nil && isIntegral(j) {
				if n.Kind == ast.Decimal {
					return mismatch("an integer", "Write a whole number without a decimal point.")
				}
				if !fitsInt64(j) {
					return mismatch("an integer from -9223372036854775808 to 9223372036854775807",
						"Integer is a 64-bit integer (int64 in generated Go, and what most JSON parsers read exactly); use Number for larger values.")
				}
				return j, true
			}
			if err == nil {
				return mismatch("an integer", "Write a whole number, or change the type to Number.")
			}
		}
		return mismatch("an integer", "Write a whole number, e.g. 3.")
	case Number:
		if n, ok := v.(*ast.Number); ok {
			if j, err := numberValue(n); err == nil {
				return j, true
			}
		}
		return mismatch("a number", "Write a number, e.g. 2.5.")
	case Boolean:
		if b, ok := v.(*ast.Boolean); ok {
			return b.Value, true
		}
		return mismatch("true or false", "Write true or false.")
	case Object:
		if _, ok := v.(*ast.Map); ok {
			return c.jsonValue(v, what)
		}
		return mismatch("an object", "Write a map, e.g. {key: \"value\"}.")
	case Array:
		arr, ok := v.(*ast.Array)
		if !ok {
			return mismatch("an array", "Write an array, e.g. [\"a\", \"b\"].")
		}
		out := make([]any, 0, len(arr.Elements))
		good := true
		for _, e := range arr.Elements {
			x, ok := c.conform(e, t.Elem, code, "element of "+what)
			good = good && ok
			out = append(out, x)
		}
		return out, good
	case EnumKind:
		en := t.Enum
		var x any
		if s, ok := stringValue(v); ok && en.ValueKind == String {
			x = s
		} else if n, ok := v.(*ast.Number); ok && en.ValueKind == Integer {
			j, err := numberValue(n)
			if err != nil || !isIntegral(j) {
				return mismatch("an integer value of the enum "+en.Name, "Use one of: "+jsonstr.List(en.Values)+".")
			}
			x = j
		} else {
			return mismatch("a value of the enum "+en.Name, "Use one of: "+jsonstr.List(en.Values)+".")
		}
		var names []string
		for _, e := range en.Values {
			if jsonvalue.Equal(e, x) {
				return x, true
			}
			names = append(names, fmt.Sprint(e))
		}
		d := c.errorf(code, v, "%s is %s, not a value of the enum %s", what, jsonstr.Text(x), en.Name).WithDetail("Use one of: " + jsonstr.List(en.Values) + ".")
		if s := c.suggest(fmt.Sprint(x), names); s != "" {
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
		m, ok := v.(*ast.Map)
		if !ok {
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
		out := make(map[string]any, len(m.Entries))
		good := true
		for k, e := range keyed(m) {
			f, ok := fields[k]
			if !ok {
				d := c.errorf(code, e.Key, "%s: %s has no field %s", what, td.Name, k).WithDetail(fmt.Sprintf("The fields of %s are: %s.", td.Name, strings.Join(fieldNames, ", ")))
				c.suggestName(d, k, fieldNames)
				good = false
				continue
			}
			x, ok := c.conform(e.Value, f.Type, code, what+" field "+k)
			good = good && ok
			out[k] = x
		}
		for _, f := range td.Fields {
			if _, given := out[f.Name]; !given && f.Name != "" && f.Required() {
				c.errorf(code, v, "%s lacks the required field %s", what, f.Name).WithDetail(fmt.Sprintf("Give every required field of %s a value.", td.Name))
				good = false
			}
		}
		return out, good
	}
	return nil, false
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
