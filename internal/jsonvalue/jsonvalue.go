// Package jsonvalue is the one place gramc compares, orders and equates
// JSON values, and reads JSON keeping where each value is.
//
// A JSON value here is what encoding/json decodes with UseNumber: nil,
// bool, string, json.Number, []any and map[string]any. Numbers compare by
// value, never by spelling: 1, 1.0 and 1e0 are the same number, so a
// default changed from 1 to 1.0 is no change (gramc diff), and an enum of
// 1 accepts 1.0 (the checker, :Test expectations). float64, int and int64
// (values built in Go rather than decoded) compare as the numbers they
// are.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Equal reports whether a and b are the same JSON value: numbers by
// value, arrays element by element, objects key by key (in any order).
func Equal(a, b any) bool { return Compare(a, b) == 0 }

// Decode reads the first JSON value of data as this package's values are
// (numbers as json.Number), for the cassette's bodies and agenttest's
// answers, which Equal then compares. Unlike Read it keeps no positions,
// allows a repeated key (the last wins, as encoding/json does) and
// ignores what follows the value.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// Compare orders JSON values totally: by kind first (null, booleans,
// numbers, strings, arrays, objects), then false before true, numbers by
// value, strings byte by byte, arrays element by element (a prefix
// first), objects by their sorted keys and then by the values under them.
// It is 0 exactly when Equal is true.
func Compare(a, b any) int {
	ka, kb := kindOf(a), kindOf(b)
	if ka != kb {
		return cmpInt(int(ka), int(kb))
	}
	switch ka {
	case Bool:
		x, y := a.(bool), b.(bool)
		if x == y {
			return 0
		} else if !x {
			return -1
		}
		return 1
	case Number:
		return CompareNumbers(number(a), number(b))
	case String:
		return strings.Compare(a.(string), b.(string))
	case Array:
		x, y := a.([]any), b.([]any)
		for i := 0; i < len(x) && i < len(y); i++ {
			if c := Compare(x[i], y[i]); c != 0 {
				return c
			}
		}
		return cmpInt(len(x), len(y))
	case Object:
		x, y := a.(map[string]any), b.(map[string]any)
		kx, ky := slices.Sorted(maps.Keys(x)), slices.Sorted(maps.Keys(y))
		if c := slices.Compare(kx, ky); c != 0 {
			return c
		}
		for _, k := range kx {
			if c := Compare(x[k], y[k]); c != 0 {
				return c
			}
		}
	}
	return 0
}

// Kind is the kind of a JSON value, in Compare's order.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func kindOf(v any) Kind {
	switch v.(type) {
	case bool:
		return Bool
	case json.Number, float64, float32, int, int64, int32:
		return Number
	case string:
		return String
	case []any:
		return Array
	case map[string]any:
		return Object
	}
	return Null
}

// number is the JSON text of a number kindOf accepts.
func number(v any) json.Number {
	switch v := v.(type) {
	case json.Number:
		return v
	case float64:
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64))
	case float32:
		return json.Number(strconv.FormatFloat(float64(v), 'g', -1, 32))
	case int:
		return json.Number(strconv.Itoa(v))
	case int64:
		return json.Number(strconv.FormatInt(v, 10))
	case int32:
		return json.Number(strconv.FormatInt(int64(v), 10))
	}
	return ""
}

// CompareNumbers compares two JSON numbers by value, exactly (integers of
// any size, decimals of any precision). A text that is not a number
// orders by its spelling, after every number.
func CompareNumbers(a, b json.Number) int {
	if a == b {
		return 0
	}
	if x, err := strconv.ParseInt(string(a), 10, 64); err == nil {
		if y, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return cmpInt64(x, y)
		}
	}
	ra, ok1 := new(big.Rat).SetString(string(a))
	rb, ok2 := new(big.Rat).SetString(string(b))
	switch {
	case ok1 && ok2:
		return ra.Cmp(rb)
	case ok1:
		return -1
	case ok2:
		return 1
	}
	return strings.Compare(string(a), string(b))
}

func cmpInt(a, b int) int { return cmpInt64(int64(a), int64(b)) }

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
