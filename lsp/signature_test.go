package lsp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNodeSpans(t *testing.T) {
	for _, c := range []struct {
		sig  string
		want []string
	}{
		{`(a::String)==>(::String)`, []string{`(a::String)`, `(::String)`}},
		// Parentheses, brackets and arrows inside strings, records and
		// lists are not nodes.
		{`(a::String {description: "a) (b ==> c", default: "x\"y)"})==>(b::Array {elementType: Integer, examples: ["[1]", "(2)"]})==>(::Object)`,
			[]string{`(a::String {description: "a) (b ==> c", default: "x\"y)"})`, `(b::Array {elementType: Integer, examples: ["[1]", "(2)"]})`, `(::Object)`}},
		{"(`odd name`::String {pattern: '^[(]$'})==>(::String)", []string{"(`odd name`::String {pattern: '^[(]$'})", `(::String)`}},
	} {
		var got []string
		for _, n := range nodeSpans(c.sig) {
			got = append(got, c.sig[n[0]:n[1]])
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("nodeSpans(%s) (-want +got):\n%s", c.sig, diff)
		}
	}
	if got := utf16Len("a😀é"); got != 4 {
		t.Errorf("utf16Len = %d, want 4", got)
	}
}
