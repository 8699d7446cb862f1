package check

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/syntax"
)

// ParamValues is one parameter's (or record field's) type, constraints,
// default and examples as JSON-ready values (strings, json.Number, bool,
// []any, map[string]any), as a program about to write them as gram holds
// them (gramc import). Numbers are written as their json.Number text.
type ParamValues struct {
	Name  string
	Field bool // a record's field, not a tool's parameter
	// Type is the parameter's type; a record's (Decl) fields say which
	// are required by Param.Required.
	Type *Type
	// Constraints: nil for none. Each applies to Type, a format is one of
	// Formats and a count is not negative, as the properties a program
	// writes for a type are: CheckParamValues judges the values, not
	// which properties a type takes.
	Constraints *Constraints
	Default     any
	HasDefault  bool
	// Examples are written as one gram array: for an Array parameter,
	// that array is one example.
	Examples []any
}

// A ValueDiagnostic is what the checker says of one property of a
// parameter written as gram: an error refuses the property (a program
// about to write it leaves it out), a warning keeps it.
type ValueDiagnostic struct {
	Key      string // "pattern", "maximum", "enum", "default", "examples", ...
	Severity diag.Severity
	Code     diag.Code
	Summary  string
	Detail   string
}

// CheckParamValues holds a parameter's constraints, enum values, examples
// and default to its type and to each other before it is written: each
// bound must be a number JSON can hold, the pattern must compile, no two
// bounds may contradict, each enum value must be of the type and listed
// once, and each example and the default must be of the type and satisfy
// the constraints. These are the checker's own rules, run by the code
// that checks the parameter written as gram, with its messages: an error
// here is the error the checker reports of the property written, a
// warning (pattern-portability) the warning. A property it does not name
// checks.
//
// As in the checker, a refused bound, pattern or enum value constrains
// nothing after: the default and the examples are held to what remains.
func CheckParamValues(p ParamValues) []ValueDiagnostic {
	c := &checker{}
	var out []ValueDiagnostic
	take := func(key string) {
		for _, d := range c.diags {
			out = append(out, ValueDiagnostic{Key: key, Severity: d.Severity, Code: d.Code, Summary: d.Summary, Detail: d.Detail})
		}
		c.diags = c.diags[:0]
	}
	var cons Constraints // what the checker keeps of them
	if p.Constraints != nil {
		cons = *p.Constraints
	}
	for _, b := range [...]struct {
		key string
		to  **json.Number
	}{{"minimum", &cons.Minimum}, {"maximum", &cons.Maximum}, {"exclusiveMinimum", &cons.ExclusiveMinimum}, {"exclusiveMaximum", &cons.ExclusiveMaximum}} {
		if *b.to != nil && c.numberLimit(nil, b.key+" bound", numberLimits(string(**b.to), **b.to)) {
			*b.to = nil
			take(b.key)
		}
	}
	what := roleParam.String()
	if p.Field {
		what = roleField.String()
	}
	if p.Name != "" {
		what += " " + p.Name
	}
	t := p.Type
	if cons.Enum != nil && t != nil {
		items := make([]item, len(cons.Enum))
		for i, v := range cons.Enum {
			items[i] = item{x: v}
		}
		cons.Enum = c.enumValues(items, t, what)
		take("enum")
	}
	re := c.checkPatternOf(cons.Pattern)
	take("pattern")
	for _, k := range boundContradictions(&cons) {
		c.errorf(diag.CodeContradiction, nil, "%s", k.summary).WithDetail(k.detail)
		take(k.keys[0])
	}
	if t == nil {
		return out
	}
	if len(p.Examples) > 0 {
		items := make([]item, len(p.Examples))
		for i, v := range p.Examples {
			items[i] = item{x: v}
		}
		c.exampleValues(items, item{x: p.Examples}, t, &cons, re, what)
		take("examples")
	}
	if p.HasDefault {
		c.defaultValue(item{x: p.Default}, t, &cons, re, what)
		take("default")
	}
	return out
}

// checkPatternOf is checkPattern of a pattern given as a value ("" for
// none).
func (c *checker) checkPatternOf(s string) *regexp.Regexp {
	if s == "" {
		return nil
	}
	return c.checkPattern(nil, s)
}

// describeGoValue is describeValue of v as gram writes it.
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
		return "the string " + truncate(valueText(v), 40)
	case []any:
		return "an array"
	case map[string]any:
		return "a map"
	}
	return "a value"
}

// valueText is canonicalValue of a scalar v as gram writes it.
func valueText(v any) string {
	switch v := v.(type) {
	case string:
		return syntax.Quote(v, '"')
	case json.Number:
		return string(v)
	case bool:
		return strconv.FormatBool(v)
	}
	return jsonstr.Text(v)
}
