package termsafe

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, ünïcode, 漢字 🙂", "plain text, ünïcode, 漢字 🙂"},
		{"name\n← forged 42", `name\n← forged 42`},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`},
		{"\x1b[2Jclear", `\x1b[2Jclear`},
		{"nul\x00 del\x7f", `nul\x00 del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bidi \u202eevil\u202c", `bidi \u202eevil\u202c`},
		{"isolate \u2066x\u2069", `isolate \u2066x\u2069`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"tab\there\r", `tab\there\r`},
	} {
		if got := Line(tc.in, 0); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if IsSafe(tc.in) != (tc.in == tc.want) {
			t.Errorf("IsSafe(%q) = %v", tc.in, IsSafe(tc.in))
		}
	}
}

func TestText(t *testing.T) {
	in := "line one\n\tline two \x1b[31mred\x1b[0m\r\n"
	want := "line one\n\tline two \\x1b[31mred\\x1b[0m\\r\n"
	if got := Text(in, 0); got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func TestCut(t *testing.T) {
	long := strings.Repeat("é", 1000) // 2000 bytes
	got := Line(long, 101)
	if !strings.HasSuffix(got, "… [1900 more bytes]") || !strings.HasPrefix(got, strings.Repeat("é", 50)) {
		t.Errorf("Line(long, 101) = %q", got)
	}
	if got := Line("short", 100); got != "short" {
		t.Errorf("short text changed: %q", got)
	}
}

func FuzzLine(f *testing.F) {
	f.Add("a\x1b[31mb\nc\u202e", 10)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max > 1<<20 || max < -1 {
			max = 0
		}
		for _, out := range []string{Line(s, max), Text(s, max)} {
			// What is printed never holds a control character but
			// newline and tab (Text), nor invalid UTF-8.
			for _, r := range out {
				if r != '\n' && r != '\t' && unsafeRune(r) || r == 0xfffd && !strings.ContainsRune(s, 0xfffd) {
					t.Fatalf("unsafe %U in %q (from %q)", r, out, s)
				}
			}
		}
		if l := Line(s, max); strings.ContainsAny(l, "\n\t") {
			t.Fatalf("Line kept a newline or tab: %q", l)
		}
	})
}
