package jsonstr

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "<tag> & amp", "tab\tnew\nline\rcr\b\f",
		"\x00\x01\x1f\x7f", "é ü 日本", "line\u2028sep\u2029", "bad \xff utf-8 \xc3", "emoji 🌧"} {
		got := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%q: invalid JSON %s: %v", s, got, err)
			continue
		}
		want, _ := json.Marshal(s)
		var wantBack string
		json.Unmarshal(want, &wantBack) //nolint:errcheck // encoding/json's own output
		if back != wantBack {
			t.Errorf("%q: round trip %q, encoding/json gives %q", s, back, wantBack)
		}
		if strings.ContainsAny(s, "<>&") && !strings.Contains(string(got), "<tag> & amp") {
			t.Errorf("%q: HTML characters escaped: %s", s, got)
		}
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{"a<b & c>", `"a<b & c>"`},
		{"line\nbreak\u2028", `"line\nbreak\u2028"`},
		{json.Number("1e3"), `1e3`},
		{[]any{"x", true, nil}, `["x",true,null]`},
		{map[string]any{"b": 1, "a": []any{}}, `{"a":[],"b":1}`},
	} {
		got := Text(c.v)
		if got != c.want {
			t.Errorf("Text(%#v) = %s, want %s", c.v, got, c.want)
		}
		if s, ok := c.v.(string); ok && got != string(AppendString(nil, s)) {
			t.Errorf("Text(%q) = %s, AppendString writes %s", s, got, AppendString(nil, s))
		}
	}
	// A value JSON cannot express prints with %v (a func: its pointer).
	if got := Text(func() {}); !strings.HasPrefix(got, "0x") {
		t.Errorf("Text(func) = %q, want %%v's pointer", got)
	}
	if got := List([]any{"celsius", json.Number("2")}); got != `"celsius", 2` {
		t.Errorf("List = %s", got)
	}
}
