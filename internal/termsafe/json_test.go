package termsafe

import "testing"

// TestJSON: a value indented, with the control and format characters of
// its strings escaped — the same value, nothing a terminal acts on — and
// bytes that are not JSON one safe line.
func TestJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":[1,2]}`, "{\n  \"a\": [\n    1,\n    2\n  ]\n}"},
		{"{\"t\":\"x\\u001b[31my\u202ez\U000e0041\"}", "{\n  \"t\": \"x\\u001b[31my\\u202ez\\udb40\\udc41\"\n}"},
		{"not json\x1b]0;x\x07", `not json\x1b]0;x\x07`},
	} {
		if got := JSON([]byte(c.in)); got != c.want {
			t.Errorf("JSON(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}
