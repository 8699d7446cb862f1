package check

import (
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/limits"
	"github.com/gramc-dev/gramc/syntax"
)

// IsJSONNumber reports whether s is in the JSON number grammar,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? (a test holds it to that
// regular expression and to encoding/json). The checker reads numbers with
// it and the schema encoder holds every json.Number it writes to it.
func IsJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// isDecimalInt reports whether s is an integer as JSON and big.Int write
// it: -?(0|[1-9][0-9]*), but not -0.
func isDecimalInt(s string) bool {
	if s == "0" {
		return true
	}
	s = strings.TrimPrefix(s, "-")
	return s != "" && s[0] != '0' && skipDigits(s, 0) == len(s)
}

// numberValue converts a gram number to a json.Number: integers keep their
// digits, hexadecimal and octal become decimal digits, decimals are written
// in JSON number syntax. Measurements are not JSON numbers (error).
//
// A number every later stage can use is at most MaxNumberLength characters
// and within float64's range: JSON parsers (the providers', the runtime's,
// generated Go's) read numbers as float64 or reject longer ones, so check
// rejects what a later stage would.
func numberValue(n *ast.Number) (json.Number, error) {
	if err := rawNumberLimit(n.Raw()); err != nil {
		return "", err
	}
	v, err := numberText(n)
	if err != nil {
		return "", err
	}
	if err := jsonNumberLimits(n.Raw(), v); err != nil {
		return "", err
	}
	return v, nil
}

// numberLimits is numberValue's limits for a JSON number v written as raw
// (gramc import's values, written as their JSON text): nil, or a
// numberLimitError.
func numberLimits(raw string, v json.Number) error {
	if err := rawNumberLimit(raw); err != nil {
		return err
	}
	return jsonNumberLimits(raw, v)
}

func rawNumberLimit(raw string) error {
	if len(raw) > MaxNumberLength {
		return numberLimitError(fmt.Sprintf("number of %d characters is longer than the %d a JSON number may have", len(raw), MaxNumberLength))
	}
	return nil
}

func jsonNumberLimits(raw string, v json.Number) error {
	if len(v) > MaxNumberLength {
		return numberLimitError(fmt.Sprintf("number %s has %d digits in JSON, more than %d", raw, len(v), MaxNumberLength))
	}
	if f, err := strconv.ParseFloat(string(v), 64); err != nil && math.IsInf(f, 0) {
		return numberLimitError(fmt.Sprintf("number of %d digits is beyond the range of a JSON number (about ±1.8·10^308)", len(v)))
	}
	return nil
}

// numberLimitError is numberValue's error for a number over a limit.
type numberLimitError string

func (e numberLimitError) Error() string { return string(e) }

// numberLimit reports err when it is a number limit (and returns true):
// such a number is well-formed, so the caller's own message ("not an
// integer", "not a number") would mislead.
func (c *checker) numberLimit(n *ast.Number, what string, err error) bool {
	le, ok := err.(numberLimitError)
	if !ok {
		return false
	}
	c.errorf(diag.CodeNotJSONValue, n, "%s: %s", what, string(le)).WithDetail("JSON parsers read numbers as 64-bit floating point, and providers reject longer ones; later stages (schemas, the runtime, generated Go) could not use it. Use a smaller number, or a string.")
	return true
}

// MaxNumberLength bounds a number's text (internal/limits: the runtime
// enforces the same bound on a model's arguments).
const MaxNumberLength = limits.MaxNumberLength

func numberText(n *ast.Number) (json.Number, error) {
	raw := strings.ReplaceAll(n.Raw(), "_", "")
	switch n.Kind {
	case ast.Measurement:
		return "", fmt.Errorf("measurement %s is not a JSON value", n.Raw())
	case ast.Hexadecimal, ast.Octal, ast.Integer:
		if n.Kind == ast.Integer && isDecimalInt(raw) {
			return json.Number(raw), nil // already what big.Int writes
		}
		neg := false
		s := raw
		switch {
		case strings.HasPrefix(s, "-"):
			neg, s = true, s[1:]
		case strings.HasPrefix(s, "+"):
			s = s[1:]
		}
		base := 10
		switch {
		case n.Kind == ast.Hexadecimal || strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
			base = 16
			s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
		case n.Kind == ast.Octal:
			base = 8
			s = strings.TrimPrefix(strings.TrimPrefix(s, "0o"), "0O")
		}
		var z big.Int
		if _, ok := z.SetString(s, base); !ok || s == "" {
			return "", fmt.Errorf("malformed number %s", n.Raw())
		}
		if neg {
			z.Neg(&z)
		}
		return json.Number(z.String()), nil
	}
	if IsJSONNumber(raw) {
		return json.Number(raw), nil
	}
	s := strings.TrimPrefix(raw, "+")
	f, ok := new(big.Float).SetPrec(200).SetString(s)
	if !ok {
		return "", fmt.Errorf("malformed number %s", n.Raw())
	}
	out := f.Text('g', -1)
	if !IsJSONNumber(out) {
		// big.Float writes "1e+10" and "+Inf"; the former is valid JSON.
		if fv, err := strconv.ParseFloat(s, 64); err == nil {
			out = strconv.FormatFloat(fv, 'g', -1, 64)
		}
	}
	if !IsJSONNumber(out) {
		return "", fmt.Errorf("malformed number %s", n.Raw())
	}
	return json.Number(out), nil
}

// isIntegral reports whether n is a whole number.
func isIntegral(n json.Number) bool {
	if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return true
	}
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.IsInt()
}

// fitsInt64 reports whether the whole number n is within int64's range.
func fitsInt64(n json.Number) bool {
	if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return true
	}
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.IsInt() && r.Num().IsInt64()
}

// describeValue names a value's kind for messages ("the symbol world").
func describeValue(v ast.Value) string {
	switch v := v.(type) {
	case *ast.Number:
		switch v.Kind {
		case ast.Measurement:
			return "the measurement " + v.Raw()
		case ast.Decimal:
			return "the decimal " + v.Raw()
		}
		return "the integer " + v.Raw()
	case *ast.RangeValue:
		return "the range " + canonicalValue(v)
	case *ast.Boolean:
		return "the boolean " + strconv.FormatBool(v.Value)
	case *ast.String, *ast.TaggedString:
		return "the string " + truncate(canonicalValue(v), 40)
	case *ast.Symbol:
		return "the symbol " + v.Name
	case *ast.Array:
		return "an array"
	case *ast.Map:
		return "a map"
	}
	return "a value"
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// stringValue returns the content of a string or tagged string.
func stringValue(v ast.Value) (string, bool) {
	switch v := v.(type) {
	case *ast.String:
		return v.Value, true
	case *ast.TaggedString:
		return v.Value, true
	}
	return "", false
}

// canonicalValue is the one-line gram text of a value.
func canonicalValue(v ast.Value) string {
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

func writeValue(b *strings.Builder, v ast.Value) {
	switch v := v.(type) {
	case *ast.Number:
		b.WriteString(v.Raw())
	case *ast.RangeValue:
		if v.Lower != nil {
			b.WriteString(v.Lower.Raw())
		}
		if v.Upper != nil {
			if v.Lower != nil {
				b.WriteString("..")
			} else {
				b.WriteString("...")
			}
			b.WriteString(v.Upper.Raw())
		} else {
			b.WriteString("...")
		}
	case *ast.Boolean:
		b.WriteString(strconv.FormatBool(v.Value))
	case *ast.String:
		b.WriteString(syntax.Quote(v.Value, '"'))
	case *ast.TaggedString:
		b.WriteString(v.Tag)
		b.WriteString(syntax.Quote(v.Value, '`'))
	case *ast.Symbol:
		b.WriteString(v.Name)
	case *ast.Array:
		b.WriteByte('[')
		for i, e := range v.Elements {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	case *ast.Map:
		b.WriteByte('{')
		for i := range v.Entries {
			e := &v.Entries[i]
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(syntax.QuoteName(e.Key.Name))
			b.WriteString(": ")
			writeValue(b, e.Value)
		}
		b.WriteByte('}')
	}
}

// writeSubject writes `id::A::B {k: v}`; with sorted, record keys are
// sorted (for identity comparison), else kept in source order.
func writeSubject(b *strings.Builder, s *ast.Subject, sorted bool) {
	start := b.Len()
	if s.Identifier != nil {
		b.WriteString(syntax.QuoteName(s.Identifier.Name))
	}
	if sorted && len(s.Labels) > 1 {
		labels := make([]string, 0, len(s.Labels))
		for i := range s.Labels {
			labels = append(labels, s.Labels[i].Name)
		}
		sort.Strings(labels)
		for _, l := range labels {
			b.WriteString("::")
			b.WriteString(syntax.QuoteName(l))
		}
	} else {
		for i := range s.Labels {
			b.WriteString("::")
			b.WriteString(syntax.QuoteName(s.Labels[i].Name))
		}
	}
	if s.Record != nil && len(s.Record.Properties) > 0 {
		if b.Len() > start {
			b.WriteByte(' ')
		}
		writeRecord(b, s.Record, sorted)
	}
}

func writeRecord(b *strings.Builder, r *ast.Record, sorted bool) {
	props := r.Properties
	if sorted {
		props = append([]ast.Property(nil), props...)
		sort.SliceStable(props, func(i, j int) bool { return keyName(&props[i].Key) < keyName(&props[j].Key) })
	}
	b.WriteByte('{')
	for i := range props {
		p := &props[i]
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(syntax.QuoteName(keyName(&p.Key)))
		b.WriteString(": ")
		writeValue(b, p.Value)
	}
	b.WriteByte('}')
}

func keyName(k *ast.Key) string {
	if k == nil {
		return ""
	}
	return k.Name
}

// keyed yields the entries of m, each with its key's name.
func keyed(m *ast.Map) iter.Seq2[string, *ast.MapEntry] {
	return func(yield func(string, *ast.MapEntry) bool) {
		for i := range m.Entries {
			if e := &m.Entries[i]; !yield(keyName(&e.Key), e) {
				return
			}
		}
	}
}

// writeNode writes `(subject)`.
func writeNode(b *strings.Builder, n *ast.NodePattern, sorted bool) {
	b.WriteByte('(')
	writeSubject(b, &n.Subject, sorted)
	b.WriteByte(')')
}

// pathNodes flattens a path into its nodes and arrows.
func pathNodes(p ast.Pattern) (nodes []*ast.NodePattern, arrows []*ast.Arrow) {
	return appendPath(p, nil, nil)
}

// appendPath is pathNodes appending to nodes and arrows (nil, nil when p
// is not a path).
func appendPath(p ast.Pattern, nodes []*ast.NodePattern, arrows []*ast.Arrow) ([]*ast.NodePattern, []*ast.Arrow) {
	for p != nil {
		switch q := p.(type) {
		case *ast.NodePattern:
			return append(nodes, q), arrows
		case *ast.RelationshipPattern:
			nodes = append(nodes, q.Left)
			arrows = append(arrows, q.Arrow)
			p = q.Right
		default:
			return nil, nil
		}
	}
	return nodes, arrows
}

// signatureText is the canonical one-line gram text of a signature:
// nodes in source order joined by "==>", properties in source order.
func signatureText(nodes []*ast.NodePattern) string {
	var b strings.Builder
	size := 0 // the source text's length is a good guess
	for _, n := range nodes {
		if n != nil {
			start, end := n.Offsets()
			size += end - start + 3
		}
	}
	b.Grow(size)
	for i, n := range nodes {
		if i > 0 {
			b.WriteString("==>")
		}
		writeNode(&b, n, false)
	}
	return b.String()
}
