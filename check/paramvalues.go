package check

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

// ParamValues is one parameter's (or record field's) type, constraints,
// default and examples as JSON-ready values (strings, json.Number, bool,
// []any, map[string]any), as a program about to write them as gram holds
// them (gramc import).
type ParamValues struct {
	Name  string
	Field bool // a record's field, not a tool's parameter
	Type  *Type
	// Constraints: nil for none.
	Constraints *Constraints
	Default     any
	HasDefault  bool
	Examples    []any
}

// Refusal is a property of a parameter that the checker refuses, as the
// checker says it of the property written in gram.
type Refusal struct {
	Key             string // "pattern", "maximum", "default", "examples", ...
	Code            diag.Code
	Summary, Detail string
}

// CheckParamValues validates a parameter's constraints and its default
// and examples against them before it is written, by the rules (and with
// the messages) the checker applies to the gram written: a pattern must
// compile, no two bounds may contradict, and each example and the default
// must be of the type and satisfy the constraints. What it returns is
// what the checker would refuse; a property it does not name checks.
//
// It judges a value's type only for String, Integer, Number and Boolean
// parameters: a value of a record, enum, Object or Array type is left to
// the checker.
func CheckParamValues(p ParamValues) []Refusal {
	c := &checker{}
	var out []Refusal
	take := func(key string) bool {
		refused := false
		for _, d := range c.diags {
			if d.Severity == diag.Error {
				out = append(out, Refusal{Key: key, Code: d.Code, Summary: d.Summary, Detail: d.Detail})
				refused = true
			}
		}
		c.diags = c.diags[:0]
		return refused
	}
	cons := p.Constraints
	if cons == nil {
		cons = &Constraints{}
	}
	re := c.checkPatternOf(cons.Pattern)
	take("pattern")
	for _, k := range boundContradictions(cons) {
		out = append(out, Refusal{Key: k.keys[0], Code: diag.CodeContradiction, Summary: k.summary, Detail: k.detail})
	}
	what := roleParam.String()
	if p.Field {
		what = roleField.String()
	}
	if p.Name != "" {
		what += " " + p.Name
	}
	t := p.Type
	if t == nil || !scalarKind(t.Kind) {
		return out
	}
	for _, v := range p.Examples {
		if c.conformValue(v, t, diag.CodeInvalidExample, "example of "+what) {
			c.satisfies(nil, v, t, cons, re, diag.CodeInvalidExample, "example of "+what)
		}
	}
	take("examples")
	if p.HasDefault {
		if c.conformValue(p.Default, t, diag.CodeInvalidDefault, "default of "+what) {
			c.satisfies(nil, p.Default, t, cons, re, diag.CodeInvalidDefault, "default of "+what)
		}
		take("default")
	}
	return out
}

// checkPatternOf is checkPattern of a pattern given as a value (nil for
// none).
func (c *checker) checkPatternOf(s string) *regexp.Regexp {
	if s == "" {
		return nil
	}
	return c.checkPattern(nil, s)
}

func scalarKind(k Kind) bool {
	return k == String || k == Integer || k == Number || k == Boolean
}

// conformValue is conform for a JSON-ready value of a scalar type t, with
// conform's messages for the value written as gram.
func (c *checker) conformValue(v any, t *Type, code diag.Code, what string) bool {
	mismatch := func(want, detail string) bool {
		c.errorf(code, nil, "%s must be %s, not %s", what, want, describeGoValue(v)).WithDetail(detail)
		return false
	}
	n, isNum := v.(json.Number)
	switch t.Kind {
	case String:
		if _, ok := v.(string); !ok {
			return mismatch("a string", "Write a string in quotes, e.g. \"text\".")
		}
	case Integer:
		switch {
		case !isNum:
			return mismatch("an integer", "Write a whole number, e.g. 3.")
		case !isIntegral(n):
			return mismatch("an integer", "Write a whole number, or change the type to Number.")
		case strings.ContainsAny(string(n), ".eE"):
			return mismatch("an integer", "Write a whole number without a decimal point.")
		case !fitsInt64(n):
			return mismatch("an integer from -9223372036854775808 to 9223372036854775807",
				"Integer is a 64-bit integer (int64 in generated Go, and what most JSON parsers read exactly); use Number for larger values.")
		}
	case Number:
		if !isNum {
			return mismatch("a number", "Write a number, e.g. 2.5.")
		}
	case Boolean:
		if _, ok := v.(bool); !ok {
			return mismatch("true or false", "Write true or false.")
		}
	}
	return true
}

// describeGoValue is describeValue of v written as gram.
func describeGoValue(v any) string {
	switch v := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			return "the decimal " + string(v)
		}
		return "the integer " + string(v)
	case bool:
		return "the boolean " + strconv.FormatBool(v)
	case string:
		return "the string " + truncate(syntax.Quote(v, '"'), 40)
	case []any:
		return "an array"
	case map[string]any:
		return "a map"
	}
	return "a value"
}
