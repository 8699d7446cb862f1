package jsonvalue

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEqualNumbersByValue(t *testing.T) {
	for _, c := range []struct {
		a, b any
		want bool
	}{
		{json.Number("1"), json.Number("1.0"), true},
		{json.Number("1"), json.Number("1e0"), true},
		{json.Number("100"), json.Number("1e2"), true},
		{json.Number("0.1"), json.Number("0.10"), true},
		{json.Number("1"), json.Number("2"), false},
		{json.Number("123456789012345678901234567890"), json.Number("123456789012345678901234567891"), false},
		{json.Number("1"), 1.0, true},
		{json.Number("1"), 1, true},
		{json.Number("1"), "1", false},
		{"a", "a", true},
		{true, true, true},
		{true, false, false},
		{nil, nil, true},
		{nil, false, false},
		{[]any{json.Number("1"), "x"}, []any{json.Number("1.0"), "x"}, true},
		{[]any{json.Number("1")}, []any{json.Number("1"), json.Number("1")}, false},
		{map[string]any{"a": json.Number("1"), "b": nil}, map[string]any{"b": nil, "a": json.Number("1.00")}, true},
		{map[string]any{"a": json.Number("1")}, map[string]any{"b": json.Number("1")}, false},
	} {
		if got := Equal(c.a, c.b); got != c.want {
			t.Errorf("Equal(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := Equal(c.b, c.a); got != c.want {
			t.Errorf("Equal(%v, %v) = %v, want %v (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

// TestCompareOrder: Compare is a total order, kinds first.
func TestCompareOrder(t *testing.T) {
	ordered := []any{
		nil, false, true, json.Number("-1e3"), json.Number("-1"), json.Number("0"), json.Number("0.5"), json.Number("1"),
		json.Number("99999999999999999999"), "", "a", "b", []any{}, []any{json.Number("1")}, []any{json.Number("1"), nil},
		[]any{json.Number("2")}, map[string]any{}, map[string]any{"a": json.Number("1")}, map[string]any{"a": json.Number("2")},
		map[string]any{"b": nil},
	}
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare(a, b); got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestReadPlaces(t *testing.T) {
	data := []byte(`{"a": [1, {"b/c": "x", "d~": true}], "e": null}`)
	n, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	x := n.Get("a").Arr[1].Get("b/c")
	if x.Str != "x" || x.Off != 18 || x.Pointer() != "/a/1/b~1c" {
		t.Errorf("b/c: %+v, pointer %q", x, x.Pointer())
	}
	if p := n.Get("a").Arr[1].Get("d~").Pointer(); p != "/a/1/d~0" {
		t.Errorf("d~: %q", p)
	}
	if n.Pointer() != "" || n.KeyOffs[1] != 37 || n.Get("e").Kind != Null {
		t.Errorf("root: %q %v", n.Pointer(), n.KeyOffs)
	}
	if !Equal(n.Value(), map[string]any{"a": []any{1, map[string]any{"b/c": "x", "d~": true}}, "e": nil}) {
		t.Errorf("Value: %v", n.Value())
	}
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		json string
		off  int32
		msg  string
	}{
		{`{"a": 1, "a": 2}`, 9, `key "a" appears twice`},
		{`[1, 2`, 5, "unexpected end of JSON"},
		{`[1] 2`, 4, "more than one JSON value"},
		{`[1,]`, 3, "invalid JSON"},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), MaxDepth, "JSON nested more than 256 levels deep"},
	} {
		_, err := Read([]byte(c.json))
		se, ok := err.(*SyntaxError)
		if !ok || se.Off != c.off || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%.40s: %v (%#v), want %q at %d", c.json, err, err, c.msg, c.off)
		}
	}
	if _, err := Read([]byte(strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth))); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
}

// TestReadWithin: other limits than Read's, each refused at the value that
// passes it, with the error that says which limit it is.
func TestReadWithin(t *testing.T) {
	const doc = `[1, [2, 3]]`
	for _, c := range []struct {
		lim Limits
		off int32
		err error
		msg string
	}{
		{Limits{Depth: 1}, 4, ErrTooDeep, "JSON nested more than 1 levels deep"},
		{Limits{Depth: 2, Values: 4}, 8, ErrTooMany, "more than 4 JSON values"},
	} {
		_, err := ReadWithin([]byte(doc), c.lim)
		se, ok := err.(*SyntaxError)
		if !ok || se.Off != c.off || se.Err != c.err || se.Msg != c.msg {
			t.Errorf("%+v: %#v, want %q at %d", c.lim, err, c.msg, c.off)
		}
	}
	if _, err := ReadWithin([]byte(doc), Limits{Depth: 2, Values: 5}); err != nil {
		t.Errorf("within the limits: %v", err)
	}
}

// FuzzRead: Read never panics, agrees with encoding/json on what is
// valid (within the depth limit, without duplicate keys), and a value
// read equals itself decoded by encoding/json.
func FuzzRead(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.0, "x", null, true]}`, `[]`, `{"a": 1, "a": 2}`, `[[[[]]]]`, `1e400`, `"\u00e9"`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Read(data)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		stdErr := dec.Decode(&v)
		if stdErr == nil {
			if _, e := dec.Token(); e == nil {
				stdErr = &json.SyntaxError{} // a second value
			}
		}
		if err == nil {
			if stdErr != nil {
				t.Fatalf("Read accepted what encoding/json refuses: %v", stdErr)
			}
			if !Equal(n.Value(), v) {
				t.Fatalf("Read: %v, encoding/json: %v", n.Value(), v)
			}
		}
	})
}

// TestDecode: Decode gives the values Equal compares, numbers spelled as
// written, and is looser than Read where the cassette and agenttest need
// it (a repeated key, the last winning); bad JSON is an error.
func TestDecode(t *testing.T) {
	v, err := Decode([]byte(`{"n": 1.50, "a": [true, null], "k": 1, "k": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if n, ok := m["n"].(json.Number); !ok || n != "1.50" {
		t.Errorf("n = %#v, want json.Number 1.50", m["n"])
	}
	if !Equal(m["k"], 2) || !Equal(m["a"], []any{true, nil}) {
		t.Errorf("decoded %#v", m)
	}
	if _, err := Decode([]byte(`{"n": }`)); err == nil {
		t.Error("bad JSON decoded without error")
	}
}
