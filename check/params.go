package check

import (
	"encoding/json"
	"fmt"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/syntax"
)

// role says what a node of a signature or type declares.
type role int

const (
	roleParam role = iota
	roleField
	roleResult
)

func (r role) String() string {
	switch r {
	case roleField:
		return "field"
	case roleResult:
		return "return type"
	}
	return "parameter"
}

var paramHints = map[string]string{
	"type":     "The type is the node's label, not a property: write (city::String) instead of {type: \"String\"}.",
	"fields":   "An inline record is not valid gram. Declare the record at top level with [Person:Type | (name::String), (age::Integer)] and use it as the type: (person::Person).",
	"required": "Parameters are required unless they have a default or optional: true; remove required.",
	"name":     "The parameter's name is the node's identifier: write (city::String) instead of {name: \"city\"}.",
}

// applies lists the kinds a constraint property applies to.
var applies = func() map[string][]Kind {
	m := map[string][]Kind{}
	for _, p := range properties {
		if p.Owner == OnParam && p.Kinds != nil {
			m[p.Name] = p.Kinds
		}
	}
	return m
}()

func kindNames(ks []Kind) string {
	var s []string
	for _, k := range ks {
		s = append(s, k.String())
	}
	return strings.Join(s, " and ")
}

// lowerParam lowers one parameter or field node.
func (c *checker) lowerParam(n *ast.NodePattern, r role) *Param {
	p := &Param{Range: c.rng(n)}
	props := c.props(n.Record)
	legacy := props.get("paramName")
	switch {
	case n.Identifier != nil:
		p.Name = n.Identifier.Name
		p.NameRange = c.rng(n.Identifier)
		if legacy != nil {
			c.warnf(diag.CodeLegacyParamName, legacy.Key, "paramName is redundant on a named %s", r).WithDetail("The node's identifier is the parameter name; remove paramName.")
		}
	case legacy != nil:
		if s, ok := c.stringProp(legacy, r.String()); ok && s != "" {
			p.Name = s
			p.NameRange = c.rng(legacy.Value)
			sugg := withoutParamName(n, s)
			d := c.warnf(diag.CodeLegacyParamName, n, "paramName is a legacy spelling of the %s name", r).WithDetail(fmt.Sprintf("Write the name as the node's identifier: %s.", sugg))
			d.Suggestion = sugg // replaces the whole node
		}
	default:
		lt := labelText(n)
		sugg := "(name::" + lt + ")"
		detail := fmt.Sprintf("Every %s but the return type needs a name, the JSON property the model fills in. Write it before the type: %s. Only the last node of a signature, the return type, is anonymous.", r, sugg)
		if r == roleField {
			detail = fmt.Sprintf("Every field of a record needs a name, its JSON property. Write it before the type: %s.", sugg)
		}
		d := c.errorf(diag.CodeAnonymousParameter, n, "%s has no name", r).WithDetail(detail)
		d.Suggestion = sugg
	}
	what := r.String()
	if p.Name != "" {
		what += " " + p.Name
	}
	p.Type = c.nodeType(n, props, what)
	c.lowerProps(p, props, r, what)
	c.unknownProps(n.Record, r.String(), propertyNames[OnParam], paramHints)
	return p
}

// withoutParamName is n written with name as its identifier and without its
// paramName property: the fix of legacy-param-name, which keeps every other
// label and property.
func withoutParamName(n *ast.NodePattern, name string) string {
	fixed := *n
	fixed.Identifier = &ast.Identifier{Name: name}
	if len(fixed.Labels) == 0 {
		fixed.Labels = []ast.Label{{DoubleColon: true, Name: "String"}}
	}
	if n.Record != nil {
		rec := *n.Record
		rec.Properties = nil
		for _, q := range n.Record.Properties {
			if keyName(&q.Key) != "paramName" {
				rec.Properties = append(rec.Properties, q)
			}
		}
		fixed.Record = &rec
		if len(rec.Properties) == 0 {
			fixed.Record = nil
		}
	}
	return nodeText(&fixed)
}

// labelText is the node's first label, or "String".
func labelText(n *ast.NodePattern) string {
	if len(n.Labels) > 0 {
		return syntax.QuoteName(n.Labels[0].Name)
	}
	return "String"
}

// nodeText is n written back as gram, on one line.
func nodeText(n *ast.NodePattern) string {
	var b strings.Builder
	writeNode(&b, n, false)
	return b.String()
}

// lowerProps reads a parameter's, field's or result's properties.
func (c *checker) lowerProps(p *Param, props propSet, r role, what string) {
	t := p.Type
	if r == roleResult {
		for _, k := range propertyNames[OnParam] {
			if k == "description" || k == "elementType" {
				continue
			}
			if q := props.get(k); q != nil {
				detail := "A return type takes only description and elementType; defaults and constraints belong to parameters and record fields."
				if k == "default" || k == "optional" {
					detail = "The last node of a signature is the return type, and a return type has no " + k + ". If this node is meant as a parameter, the signature lacks its return type: add one after it, ==>(::String)."
				}
				c.errorf(diag.CodeInapplicableProperty, q.Key, "%s does not apply to a return type", k).WithDetail(detail)
			}
		}
	}
	if q := props.get("description"); q != nil {
		if s, ok := c.proseProp(q, what); ok {
			p.Description = s
		}
	}
	if q := props.get("deprecated"); q != nil && r != roleResult {
		p.Deprecated, _ = c.boolProp(q, what)
	}
	optionalGiven := false
	if q := props.get("optional"); q != nil && r != roleResult {
		p.Optional, optionalGiven = c.boolProp(q, what)
	}
	// Applicability of constraint properties.
	var ok constraintSet
	for i := range props.ps {
		q := &props.ps[i]
		k := q.Key.Name
		if !props.first(q) {
			continue // a duplicate, reported
		}
		kinds, constrained := applies[k]
		if !constrained || t == nil {
			continue // not a constraint, or the type is already wrong
		}
		if !kindIn(t.Kind, kinds) {
			detail := fmt.Sprintf("%s applies to %s; %s is %s.", k, kindNames(kinds), what, articleType(t))
			if t.Kind == EnumKind && k == "enum" {
				detail = fmt.Sprintf("%s is the enum %s, whose values are declared with it; remove enum here.", what, t.Name())
			}
			c.errorf(diag.CodeInapplicableProperty, q.Key, "%s does not apply to %s", k, articleType(t)).WithDetail(detail)
			continue
		}
		ok.set(k, true)
	}
	if r == roleResult {
		return
	}
	// Most parameters have no constraint: they hold none (a model holds a
	// parameter for every few dozen bytes of a file).
	cons := &Constraints{}
	if ok != 0 {
		p.Constraints = cons
	}
	if ok.has("enum") {
		cons.Enum = c.enumList(props.get("enum"), t, what)
	}
	if ok.has("range") {
		q := props.get("range")
		if rv, isRange := q.Value.(*ast.RangeValue); isRange {
			if rv.Lower != nil {
				cons.Minimum = c.bound(rv.Lower, t, "range")
			}
			if rv.Upper != nil {
				cons.Maximum = c.bound(rv.Upper, t, "range")
			}
			for _, k := range []string{"minimum", "maximum"} {
				if o := props.get(k); o != nil && ok.has(k) {
					d := c.errorf(diag.CodeContradiction, o.Key, "%s and range both give bounds", k).WithDetail("range is shorthand for minimum and maximum; give the bounds one way only.")
					d.Related = []diag.Related{{Range: c.rng(q.Key), Message: "range given here"}}
					ok.set(k, false)
				}
			}
		} else {
			c.errorf(diag.CodeInvalidPropertyValue, q.Value, "range must be a range such as 1..10, not %s", describeValue(q.Value)).WithDetail("Write a gram range: 1..10, 1... (at least 1) or ...10 (at most 10).")
		}
	}
	numProp := func(k string) *json.Number {
		if !ok.has(k) {
			return nil
		}
		q := props.get(k)
		n, isNum := q.Value.(*ast.Number)
		if !isNum {
			c.errorf(diag.CodeInvalidPropertyValue, q.Value, "%s must be a number, not %s", k, describeValue(q.Value)).WithDetail(fmt.Sprintf("Write a number, e.g. %s: 0.", k))
			return nil
		}
		return c.bound(n, t, k)
	}
	if v := numProp("minimum"); v != nil {
		cons.Minimum = v
	}
	if v := numProp("maximum"); v != nil {
		cons.Maximum = v
	}
	cons.ExclusiveMinimum = numProp("exclusiveMinimum")
	cons.ExclusiveMaximum = numProp("exclusiveMaximum")
	countProp := func(k string) *int64 {
		if !ok.has(k) {
			return nil
		}
		q := props.get(k)
		if n, isNum := q.Value.(*ast.Number); isNum && n.Kind != ast.Measurement && n.Kind != ast.Decimal {
			if v, err := numberValue(n); err == nil {
				if i, err := v.Int64(); err == nil && i >= 0 {
					return &i
				}
			}
		}
		c.errorf(diag.CodeInvalidPropertyValue, q.Value, "%s must be a non-negative integer, not %s", k, describeValue(q.Value)).WithDetail(fmt.Sprintf("Write a whole number of zero or more, e.g. %s: 1.", k))
		return nil
	}
	cons.MinLength = countProp("minLength")
	cons.MaxLength = countProp("maxLength")
	cons.MinItems = countProp("minItems")
	cons.MaxItems = countProp("maxItems")
	if ok.has("uniqueItems") {
		cons.UniqueItems, _ = c.boolProp(props.get("uniqueItems"), what)
	}
	var re *regexp.Regexp
	if ok.has("pattern") {
		if s, isStr := c.stringProp(props.get("pattern"), what); isStr {
			cons.Pattern = s
			re = c.checkPattern(props.get("pattern").Value, s)
		}
	}
	if ok.has("format") {
		q := props.get("format")
		if s, isStr := c.stringProp(q, what); isStr {
			if contains(formats, s) {
				cons.Format = s
			} else {
				d := c.errorf(diag.CodeUnknownFormat, q.Value, "unknown format %q", s).WithDetail("Known formats: " + strings.Join(formats, ", ") + ".")
				c.suggestQuoted(d, s, formats)
			}
		}
	}
	c.contradictions(props, cons)
	if q := props.get("examples"); q != nil && t != nil {
		p.Examples = c.examples(q, p, re, what)
	}
	if q := props.get("default"); q != nil {
		if o := props.get("optional"); o != nil && optionalGiven && !p.Optional {
			d := c.errorf(diag.CodeContradiction, o.Value, "%s has a default but optional: false", what).WithDetail("A default makes a parameter optional; remove optional: false or the default.")
			d.Related = []diag.Related{{Range: c.rng(q.Key), Message: "default given here"}}
		}
		if t != nil {
			p.Default, p.HasDefault = c.defaultValue(item{n: q.Value}, t, cons, re, what)
		}
		p.Optional = true
	}
}

// constraintKeys are the keys of applies, for constraintSet.
var constraintKeys = func() []string {
	keys := make([]string, 0, len(applies))
	for k := range applies {
		keys = append(keys, k)
	}
	return keys
}()

// constraintSet is a set of constraint keys (of applies): a bit each.
type constraintSet uint32

func constraintBit(k string) constraintSet {
	for i, c := range constraintKeys {
		if c == k {
			return 1 << i
		}
	}
	return 0
}

func (s constraintSet) has(k string) bool { return s&constraintBit(k) != 0 }

func (s *constraintSet) set(k string, in bool) {
	if in {
		*s |= constraintBit(k)
	} else {
		*s &^= constraintBit(k)
	}
}

func kindIn(k Kind, ks []Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// articleType names a type for messages ("a String", "the record Report").
func articleType(t *Type) string {
	switch t.Kind {
	case Record:
		return "the record type " + t.Name()
	case EnumKind:
		return "the enum " + t.Name()
	case Array:
		return "an Array"
	case Integer, Object:
		return "an " + t.Kind.String()
	}
	return "a " + t.Kind.String()
}

// bound converts a numeric bound; Integer parameters accept any number.
func (c *checker) bound(n *ast.Number, t *Type, k string) *json.Number {
	v, err := numberValue(n)
	if c.numberLimit(n, k+" bound", err) {
		return nil
	}
	if err != nil {
		c.errorf(diag.CodeNotJSONValue, n, "%s bound %s is not a number", k, n.Raw()).WithDetail("Bounds are plain numbers; drop the unit.")
		return nil
	}
	return &v
}

// contradictions reports bounds that no value can satisfy.
func (c *checker) contradictions(props propSet, cons *Constraints) {
	at := func(keys ...string) ast.Node {
		for _, k := range keys {
			if q := props.get(k); q != nil {
				return q.Value
			}
		}
		return nil
	}
	for _, k := range boundContradictions(cons) {
		if n := at(k.keys...); n != nil || !k.bounds {
			c.errorf(diag.CodeContradiction, n, "%s", k.summary).WithDetail(k.detail)
		}
	}
}

// contradiction is a pair of constraints no value satisfies, blamed on
// the first of keys given (bounds: a numeric pair, reported only where
// one of keys is written).
type contradiction struct {
	keys            []string
	bounds          bool
	summary, detail string
}

// boundContradictions lists the pairs of cons no value satisfies: the one
// rule contradictions and CheckParamValues report. It allocates nothing
// for constraints without a contradiction (most).
func boundContradictions(cons *Constraints) []contradiction {
	var out []contradiction
	for _, b := range [...]struct {
		a, b   *json.Number
		strict bool
		la, lb string
		keys   []string
	}{
		{cons.Minimum, cons.Maximum, false, "minimum", "maximum", keysMaximum},
		{cons.ExclusiveMinimum, cons.ExclusiveMaximum, true, "exclusiveMinimum", "exclusiveMaximum", keysExclusiveMaximum},
		{cons.Minimum, cons.ExclusiveMaximum, true, "minimum", "exclusiveMaximum", keysExclusiveMaximum},
		{cons.ExclusiveMinimum, cons.Maximum, true, "exclusiveMinimum", "maximum", keysMaximum[:2]},
	} {
		if b.a == nil || b.b == nil {
			continue
		}
		if cmp := jsonvalue.CompareNumbers(*b.a, *b.b); cmp > 0 || (b.strict && cmp == 0) {
			rel := "is above"
			if b.strict {
				rel = "is not below"
			}
			out = append(out, contradiction{b.keys, true, fmt.Sprintf("%s %s %s %s %s", b.la, *b.a, rel, b.lb, *b.b), "No value satisfies both bounds; swap them or fix one."})
		}
	}
	for _, n := range [...]struct {
		a, b   *int64
		la, lb string
		keys   []string
	}{{cons.MinLength, cons.MaxLength, "minLength", "maxLength", keysMaxLength}, {cons.MinItems, cons.MaxItems, "minItems", "maxItems", keysMaxItems}} {
		if n.a != nil && n.b != nil && *n.a > *n.b {
			out = append(out, contradiction{n.keys, false, fmt.Sprintf("%s %d is above %s %d", n.la, *n.a, n.lb, *n.b), "No value satisfies both; swap them or fix one."})
		}
	}
	return out
}

// The properties a contradiction is blamed on, the first written.
var (
	keysMaximum          = []string{"maximum", "range", "minimum"}
	keysExclusiveMaximum = []string{"exclusiveMaximum"}
	keysMaxLength        = []string{"maxLength"}
	keysMaxItems         = []string{"maxItems"}
)

// enumList reads a parameter's `enum` list.
func (c *checker) enumList(q *ast.Property, t *Type, what string) []any {
	arr, ok := q.Value.(*ast.Array)
	if !ok {
		c.errorf(diag.CodeInvalidEnum, q.Value, "enum must be an array, not %s", describeValue(q.Value)).WithDetail(`List the allowed values in an array: enum: ["a", "b"].`)
		return nil
	}
	items := make([]item, len(arr.Elements))
	for i, e := range arr.Elements {
		items[i] = item{n: e}
	}
	return c.enumValues(items, t, what)
}

// enumValues holds a parameter's enum values to its type, each listed
// once; it returns the values that are.
func (c *checker) enumValues(items []item, t *Type, what string) []any {
	out := make([]any, 0, len(items))
	seen := map[string]ast.Value{}
	for _, e := range items {
		v, good := c.conformItem(e, t, diag.CodeInvalidEnum, "enum value of "+what)
		if !good {
			continue
		}
		if c.firstListing(seen, e.n, v, "Each allowed value must appear once; remove the repetition.") {
			out = append(out, v)
		}
	}
	return out
}

// firstListing records in seen that e lists the enum value v and reports
// whether it is the first to: a repetition is an error, with detail, that
// points at the first listing. An :Enum's values and a parameter's enum
// list are held to this one rule.
func (c *checker) firstListing(seen map[string]ast.Value, e ast.Value, v any, detail string) bool {
	k := fmt.Sprint(v)
	if prev, dup := seen[k]; dup {
		text := valueText(v) // a value not written yet (e is nil)
		if e != nil {
			text = canonicalValue(e)
		}
		d := c.errorf(diag.CodeInvalidEnum, e, "enum value %s is listed twice", text).WithDetail(detail)
		d.Related = []diag.Related{{Range: c.rng(prev), Message: "first listed here"}}
		return false
	}
	seen[k] = e
	return true
}

// examples reads `examples`: each element is one example, except for an
// Array parameter, where the whole array is one example.
func (c *checker) examples(q *ast.Property, p *Param, re *regexp.Regexp, what string) []any {
	arr, ok := q.Value.(*ast.Array)
	if !ok {
		c.errorf(diag.CodeInvalidExample, q.Value, "examples must be an array, not %s", describeValue(q.Value)).WithDetail(`List examples in an array: examples: ["Paris", "Tokyo"].`)
		return nil
	}
	items := make([]item, len(arr.Elements))
	for i, e := range arr.Elements {
		items[i] = item{n: e}
	}
	return c.exampleValues(items, item{n: arr}, p.Type, p.Constraints, re, what)
}

// exampleValues holds a parameter's examples (items; all: the list as
// one value) to its type and constraints; it returns those that hold.
func (c *checker) exampleValues(items []item, all item, t *Type, cons *Constraints, re *regexp.Regexp, what string) []any {
	if t.Kind == Array {
		if v, good := c.conformItem(all, t, diag.CodeInvalidExample, "example of "+what); good {
			return []any{v}
		}
		return nil
	}
	var out []any
	for _, e := range items {
		if v, good := c.conformItem(e, t, diag.CodeInvalidExample, "example of "+what); good {
			if c.satisfies(e.n, v, t, cons, re, diag.CodeInvalidExample, "example of "+what) {
				out = append(out, v)
			}
		}
	}
	return out
}

// defaultValue holds a parameter's default to its type and constraints.
func (c *checker) defaultValue(d item, t *Type, cons *Constraints, re *regexp.Regexp, what string) (any, bool) {
	v, good := c.conformItem(d, t, diag.CodeInvalidDefault, "default of "+what)
	if good && c.satisfies(d.n, v, t, cons, re, diag.CodeInvalidDefault, "default of "+what) {
		return v, true
	}
	return nil, false
}

// satisfies checks a conforming value against the constraints.
func (c *checker) satisfies(n ast.Node, v any, t *Type, cons *Constraints, re *regexp.Regexp, code diag.Code, what string) bool {
	if cons == nil {
		cons = &Constraints{}
	}
	fail := func(detail, format string, args ...any) bool {
		c.errorf(code, n, format, args...).WithDetail(detail)
		return false
	}
	if len(cons.Enum) > 0 {
		found := false
		for _, e := range cons.Enum {
			if jsonvalue.Equal(e, v) {
				found = true
				break
			}
		}
		if !found {
			return fail("Use one of the allowed values: "+jsonstr.List(cons.Enum)+".", "%s is %s, not one of the enum values", what, jsonstr.Text(v))
		}
	}
	switch v := v.(type) {
	case json.Number:
		if cons.Minimum != nil && jsonvalue.CompareNumbers(v, *cons.Minimum) < 0 {
			return fail("Choose a value inside the bounds or change them.", "%s is %s, below the minimum %s", what, v, *cons.Minimum)
		}
		if cons.Maximum != nil && jsonvalue.CompareNumbers(v, *cons.Maximum) > 0 {
			return fail("Choose a value inside the bounds or change them.", "%s is %s, above the maximum %s", what, v, *cons.Maximum)
		}
		if cons.ExclusiveMinimum != nil && jsonvalue.CompareNumbers(v, *cons.ExclusiveMinimum) <= 0 {
			return fail("Choose a value inside the bounds or change them.", "%s is %s, not above the exclusive minimum %s", what, v, *cons.ExclusiveMinimum)
		}
		if cons.ExclusiveMaximum != nil && jsonvalue.CompareNumbers(v, *cons.ExclusiveMaximum) >= 0 {
			return fail("Choose a value inside the bounds or change them.", "%s is %s, not below the exclusive maximum %s", what, v, *cons.ExclusiveMaximum)
		}
	case string:
		n := int64(utf8.RuneCountInString(v))
		if cons.MinLength != nil && n < *cons.MinLength {
			return fail("Use a longer value or lower minLength.", "%s is shorter than minLength %d", what, *cons.MinLength)
		}
		if cons.MaxLength != nil && n > *cons.MaxLength {
			return fail("Use a shorter value or raise maxLength.", "%s is longer than maxLength %d", what, *cons.MaxLength)
		}
		if re != nil && !re.MatchString(v) {
			return fail("Use a value that matches the pattern, or change the pattern.", "%s does not match the pattern %q", what, re.String())
		}
	case []any:
		n := int64(len(v))
		if cons.MinItems != nil && n < *cons.MinItems {
			return fail("Add items or lower minItems.", "%s has fewer than %s (minItems)", what, english.Plural(int(*cons.MinItems), "item"))
		}
		if cons.MaxItems != nil && n > *cons.MaxItems {
			return fail("Remove items or raise maxItems.", "%s has more than %s (maxItems)", what, english.Plural(int(*cons.MaxItems), "item"))
		}
		if cons.UniqueItems {
			seen := map[string]bool{}
			for _, e := range v {
				k := jsonstr.Text(e)
				if seen[k] {
					return fail("uniqueItems is set; remove the repeated item.", "%s repeats the item %s", what, k)
				}
				seen[k] = true
			}
		}
	}
	return true
}
