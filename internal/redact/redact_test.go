package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestSecretWholeTokens(t *testing.T) {
	for _, tc := range []struct{ key, in, want string }{
		// A one-letter dummy key leaves ordinary text alone.
		{"o", "connection refused", "connection refused"},
		{"o", "Authorization: Bearer o", "Authorization: Bearer [REDACTED]"},
		{"o", `{"key":"o"}`, `{"key":"[REDACTED]"}`},
		{"sk-abc123", "invalid key sk-abc123.", "invalid key [REDACTED]."},
		{"sk-abc123", "url?key=sk-abc123&x=1", "url?key=[REDACTED]&x=1"},
		{"sk-abc123", "sk-abc123sk-abc123", "sk-abc123sk-abc123"},
		{"sk-abc123", "xsk-abc123", "xsk-abc123"},
		{"sk-abc123", "sk-abc123-more", "sk-abc123-more"},
		{"abc", "abc abc", "[REDACTED] [REDACTED]"},
		{"x x", "x x x", "[REDACTED] x"},
		// Escaped copies in JSON bodies.
		{"k<e>y&", `{"k":"k\u003ce\u003ey\u0026"}`, `{"k":"[REDACTED]"}`},
		{`k"ey`, `{"k":"k\"ey"}`, `{"k":"[REDACTED]"}`},
		{"", "anything", "anything"},
	} {
		if got := NewSecret(tc.key).String(tc.in); got != tc.want {
			t.Errorf("NewSecret(%q).String(%q) = %q, want %q", tc.key, tc.in, got, tc.want)
		}
	}
	data := []byte("nothing secret")
	if got := NewSecret("zz").Bytes(data); &got[0] != &data[0] {
		t.Error("Bytes copied data without a secret in it")
	}
	if got := string(NewSecret("zz").Bytes([]byte("a zz b"))); got != "a [REDACTED] b" {
		t.Errorf("Bytes = %q", got)
	}
}

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pass@host:8080/v1": "https://user:[REDACTED]@host:8080/v1",
		"https://user@host/v1":           "https://user@host/v1",
		"https://host/v1":                "https://host/v1",
		"::not a url":                    "::not a url",
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzSecret(f *testing.F) {
	f.Add("o", "connection refused Bearer o")
	f.Add("x x", "x x x x")
	f.Fuzz(func(t *testing.T, key, text string) {
		got := NewSecret(key).String(text)
		if !strings.Contains(text, key) && !strings.Contains(text, strings.Trim(mustJSON(key), `"`)) && got != text {
			t.Fatalf("no secret in %q, but String changed it to %q", text, got)
		}
		// A secret standing alone between spaces is always redacted.
		if key != "" && strings.TrimSpace(key) == key && !strings.ContainsAny(key, " ") {
			if out := NewSecret(key).String("a " + key + " b"); strings.Contains(out, " "+key+" ") {
				t.Fatalf("secret %q survived: %q", key, out)
			}
		}
	})
}
