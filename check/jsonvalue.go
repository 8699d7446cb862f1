package check

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonpath"
	"github.com/gramc-dev/gramc/internal/jsonstr"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
)

// JSONTag is the tag of a test value written as JSON: json`{"tags": ["billing"]}`.
const JSONTag = "json"

// testValue converts a value of a test (an expected call's args and
// returns) to a JSON-ready value of type t, as conform does, and also
// takes the value as a JSON literal in a tagged string, json`...`: what
// gram's maps and arrays cannot hold (a record with an array field, an
// array of records) is written so, and checked against the type like any
// value.
func (c *checker) testValue(v ast.Value, t *Type, code diag.Code, what string) (any, bool) {
	ts, ok := v.(*ast.TaggedString)
	if !ok || ts.Tag != JSONTag {
		return c.conform(v, t, code, what)
	}
	dec := json.NewDecoder(strings.NewReader(ts.Value))
	dec.UseNumber()
	var x any
	err := dec.Decode(&x)
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			err = fmt.Errorf("text after the value")
		}
	}
	if err != nil {
		c.errorf(code, v, "%s: json`...` holds no JSON value: %v", what, err).WithDetail("Write one JSON value between the backquotes, e.g. json`{\"tags\": [\"billing\"]}`.")
		return nil, false
	}
	if t == nil {
		return nil, false
	}
	if problem := conformJSON(x, t, "$"); problem != "" {
		c.errorf(code, v, "%s: %s", what, problem).WithDetail(fmt.Sprintf("The value must be %s (JSON in json`...` is checked against the type as any value is).", articleType(t)))
		return nil, false
	}
	return x, true
}

// conformJSON says how the decoded JSON value x (json.Number for numbers)
// is not of type t, at path ("" when it is).
func conformJSON(x any, t *Type, path string) string {
	if t == nil {
		return ""
	}
	bad := func(want string) string {
		return fmt.Sprintf("at %s: want %s, not %s", path, want, describeJSON(x))
	}
	switch t.Kind {
	case String:
		if _, ok := x.(string); !ok {
			return bad("a string")
		}
	case Integer:
		n, ok := x.(json.Number)
		if !ok || !isIntegral(n) || !fitsInt64(n) {
			return bad("an integer")
		}
	case Number:
		if _, ok := x.(json.Number); !ok {
			return bad("a number")
		}
	case Boolean:
		if _, ok := x.(bool); !ok {
			return bad("true or false")
		}
	case Object:
		if _, ok := x.(map[string]any); !ok {
			return bad("an object")
		}
	case Array:
		a, ok := x.([]any)
		if !ok {
			return bad("an array")
		}
		for i, e := range a {
			if p := conformJSON(e, t.Elem, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case EnumKind:
		if t.Enum != nil {
			for _, e := range t.Enum.Values {
				if jsonvalue.Equal(e, x) {
					return ""
				}
			}
			return bad("a value of the enum " + t.Enum.Name + " (" + jsonstr.List(t.Enum.Values) + ")")
		}
	case Record:
		m, ok := x.(map[string]any)
		if !ok {
			return bad("an object of the fields of " + t.Name())
		}
		if t.Decl == nil {
			return ""
		}
		fields := map[string]*Param{}
		for _, f := range t.Decl.Fields {
			fields[f.Name] = f
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			f, ok := fields[k]
			if !ok {
				return fmt.Sprintf("at %s: %s has no field %s", path, t.Decl.Name, jsonstr.Text(k))
			}
			if p := conformJSON(m[k], f.Type, path+"."+k); p != "" {
				return p
			}
		}
		for _, f := range t.Decl.Fields {
			if _, ok := m[f.Name]; !ok && f.Name != "" && f.Required() {
				return fmt.Sprintf("at %s: the required field %s of %s is missing", path, f.Name, t.Decl.Name)
			}
		}
	}
	return ""
}

// describeJSON names a decoded JSON value in messages: the string "x",
// the number 3, true, an array, an object, null.
func describeJSON(x any) string {
	switch x := x.(type) {
	case nil:
		return "null"
	case string:
		return "the string " + jsonstr.Text(x)
	case json.Number:
		return "the number " + x.String()
	case bool:
		return fmt.Sprint(x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", x)
}

// ignoreRequests reads a test's `ignoreRequests`: a JSON path, or an
// array of them, each as the cassette replayer reads it.
func (c *checker) ignoreRequests(q *ast.Property) []string {
	vals := []ast.Value{q.Value}
	if arr, ok := q.Value.(*ast.Array); ok {
		vals = arr.Elements
	}
	var out []string
	for _, v := range vals {
		s, ok := stringValue(v)
		if !ok {
			c.errorf(diag.CodeInvalidTest, v, "ignoreRequests must be a JSON path or an array of them, not %s", describeValue(v)).WithDetail(`Name the parts of the requests a replay does not compare: ignoreRequests: ["$.temperature", "$.messages[*].name"].`)
			continue
		}
		if _, err := jsonpath.Parse(s); err != nil {
			c.errorf(diag.CodeInvalidTest, v, "ignoreRequests: %v", err).WithDetail(`A path begins with $ (the request's body) and steps with .key, ["key"], [N] or [*]: "$.messages[*].name".`)
			continue
		}
		out = append(out, s)
	}
	return out
}
