package importer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
	"github.com/gramc-dev/gramc/internal/limits"
)

// plainNumber writes a JSON number without an exponent, as gram writes
// numbers (gram has no exponent): "1.5e3" is "1500". ok is false when the
// result would be longer than gram's numbers may be.
func plainNumber(num string) (string, bool) {
	if !jsonNumberRE.MatchString(num) {
		return "", false
	}
	neg := strings.HasPrefix(num, "-")
	num = strings.TrimPrefix(num, "-")
	mant, exp := num, 0
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		mant = num[:i]
		e, err := strconv.Atoi(num[i+1:])
		if err != nil || e > limits.MaxNumberLength || e < -limits.MaxNumberLength {
			return "", false
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	point := len(intPart) + exp // digits before the point
	switch {
	case point <= 0:
		digits = strings.Repeat("0", -point+1) + digits
		point = 1
	case point > len(digits):
		digits += strings.Repeat("0", point-len(digits))
	}
	ip, fp := strings.TrimLeft(digits[:point], "0"), strings.TrimRight(digits[point:], "0")
	if ip == "" {
		ip = "0"
	}
	out := ip
	if fp != "" {
		out += "." + fp
	}
	if neg && out != "0" {
		out = "-" + out
	}
	if len(out) > limits.MaxNumberLength {
		return "", false
	}
	return out, true
}

// value reads a default or an example as a value gram can write: a
// scalar, an array of scalars or a map of scalars. Whether it fits the
// type is the checker's to say (see write).
func (im *importer) value(n *node, what string) (any, bool) {
	why := unwritable(n, what == "example")
	if why == "" {
		if v, ok := plainValue(n); ok {
			return v, true
		}
		why = "it holds a number too long or a NUL character, which gram cannot write"
	}
	im.warn(diag.CodeImportInvalidValue, n, fmt.Sprintf("this %s is dropped: %s", what, why),
		"The value cannot be written in gram, so the parameter has no "+what+" here. Write one gram can hold, if it matters.")
	return nil, false
}

// unwritable says why n cannot be written as a gram value ("" when it
// can); an element of a list (an example) must be a scalar.
func unwritable(n *node, element bool) string {
	switch n.Kind {
	case jsonvalue.Null:
		return "null is not a gram value (gram has no null)"
	case jsonvalue.Array, jsonvalue.Object:
		if element {
			return "examples are a gram array, which holds scalars only"
		}
	}
	switch n.Kind {
	case jsonvalue.Array:
		if len(n.Arr) == 0 {
			return "an empty array cannot be written in gram"
		}
		for _, e := range n.Arr {
			if e.Kind == jsonvalue.Object || e.Kind == jsonvalue.Array || e.Kind == jsonvalue.Null {
				return "a gram array holds scalars only"
			}
		}
	case jsonvalue.Object:
		for _, k := range n.Keys {
			if e := n.Obj[k]; e.Kind == jsonvalue.Object || e.Kind == jsonvalue.Array || e.Kind == jsonvalue.Null {
				return "a gram map holds scalars only"
			}
		}
	}
	return ""
}

// plainValue is n as a JSON-ready value with numbers written plainly.
func plainValue(n *node) (any, bool) {
	switch n.Kind {
	case jsonvalue.String:
		if strings.IndexByte(n.Str, 0) >= 0 {
			return nil, false
		}
		return n.Str, true
	case jsonvalue.Number:
		p, ok := plainNumber(string(n.Num))
		return json.Number(p), ok
	case jsonvalue.Bool:
		return n.Bool, true
	case jsonvalue.Array:
		out := make([]any, len(n.Arr))
		for i, e := range n.Arr {
			v, ok := plainValue(e)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	case jsonvalue.Object:
		m := map[string]any{}
		for _, k := range n.Keys {
			if strings.IndexByte(k, 0) >= 0 {
				return nil, false
			}
			v, ok := plainValue(n.Obj[k])
			if !ok {
				return nil, false
			}
			m[k] = v
		}
		return m, true
	}
	return nil, false
}
