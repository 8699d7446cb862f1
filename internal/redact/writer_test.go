package redact

import (
	"strings"
	"testing"
)

// TestWriterSplit: a secret split across writes, at every split point, is
// redacted; ordinary text passes through unchanged; a short dummy key does
// not mangle words.
func TestWriterSplit(t *testing.T) {
	key := `sk-live<&>key"1`
	esc := `sk-live\u003c\u0026\u003ekey\"1`
	for _, tc := range []struct{ in, want string }{
		{"the key is " + key + ".", "the key is [REDACTED]."},
		{"json: \"" + esc + "\" end", "json: \"[REDACTED]\" end"},
		{"no secret here, sk-liv", "no secret here, sk-liv"},
		{"x" + key + "y", "x" + key + "y"}, // inside a longer word: not the key
		{key + key, key + key},
		{"a " + key + "\n" + key, "a [REDACTED]\n[REDACTED]"},
	} {
		for split := 0; split <= len(tc.in); split++ {
			var out strings.Builder
			w := NewWriter(&out, NewSecret(key))
			w.Write([]byte(tc.in[:split]))
			w.Write([]byte(tc.in[split:]))
			w.Flush()
			if out.String() != tc.want {
				t.Errorf("%q split at %d: got %q, want %q", tc.in, split, out.String(), tc.want)
				break
			}
		}
	}
	var out strings.Builder
	w := NewWriter(&out, NewSecret("o"))
	for _, c := range "connection refused, o, o." {
		w.Write([]byte(string(c)))
	}
	w.Flush()
	if out.String() != "connection refused, [REDACTED], [REDACTED]." {
		t.Errorf("dummy key: %q", out.String())
	}
}

// TestWriterHoldsOnlyPrefixes: text that cannot start the secret is passed
// on at once (a prompt is shown before the user types).
func TestWriterHoldsOnlyPrefixes(t *testing.T) {
	var out strings.Builder
	w := NewWriter(&out, NewSecret("sk-secret"))
	w.Write([]byte("> "))
	if out.String() != "> " {
		t.Errorf("held %q", "> ")
	}
	w.Write([]byte("ask"))
	if out.String() != "> a" {
		t.Errorf("got %q, want the text up to a possible start of the key", out.String())
	}
	w.Flush()
	if out.String() != "> ask" {
		t.Errorf("after Flush: %q", out.String())
	}
}
