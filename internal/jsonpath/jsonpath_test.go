package jsonpath

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRemove(t *testing.T) {
	for _, c := range []struct{ path, in, want string }{
		{"$.temperature", `{"temperature":0.2,"model":"m"}`, `{"model":"m"}`},
		{"$.messages[1].content", `{"messages":[{"content":"a"},{"content":"b","role":"user"}]}`, `{"messages":[{"content":"a"},{"role":"user"}]}`},
		{"$.tools[*].description", `{"tools":[{"description":"x","name":"a"},{"description":"y","name":"b"}]}`, `{"tools":[{"name":"a"},{"name":"b"}]}`},
		{`$["odd key"].*`, `{"odd key":{"a":1,"b":2},"c":3}`, `{"c":3,"odd key":{}}`},
		{"$.items[0]", `{"items":[1,2]}`, `{"items":[null,2]}`},
		{"$.absent.deeper", `{"present":1}`, `{"present":1}`},
	} {
		p, err := Parse(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		var v any
		if err := json.Unmarshal([]byte(c.in), &v); err != nil {
			t.Fatal(err)
		}
		Remove(v, p)
		got, _ := json.Marshal(v)
		if string(got) != c.want {
			t.Errorf("%s on %s: %s, want %s", c.path, c.in, got, c.want)
		}
	}
	for _, bad := range []string{"", "temperature", "$", "$.", "$[x]", "$[-1]", "$[1", `$["unterminated]`, "$..a", "$a"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// FuzzParse: any text parses or is refused with an error, never a panic,
// and a path that parses removes from any value without one.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"$.a", "$.a[0].b", "$[*]", `$["k"]`, "$.*.x", "$[", strings.Repeat(".a", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		if len(p) == 0 || len(p) > MaxSegments {
			t.Fatalf("%q: %d segments", s, len(p))
		}
		var v any
		json.Unmarshal([]byte(`{"a":[{"b":1},{"b":[2,{"c":3}]}],"k":{"x":true}}`), &v) //nolint:errcheck // a constant
		Remove(v, p)
	})
}
