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
