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

// TestSecretAsJSONReadsIt: a key the model echoes with JSON escapes, or
// split across a streamed answer's events, is found as the client that
// decodes and joins them would see it (issue 35.2, 35.3: the \u-escaped
// key in --debug and in a cassette).
func TestSecretAsJSONReadsIt(t *testing.T) {
	const key = "sk-live-0123456789"
	for _, tc := range []struct{ name, in, want string }{
		{"escaped", `{"text":"the key is \u0073k-live-0123456789."}`, `{"text":"the key is [REDACTED]."}`},
		{"all escaped", `{"t":"\u0073\u006b\u002dlive-0123456789"}`, `{"t":"[REDACTED]"}`},
		{"in arguments", `{"arguments":"{\"q\":\"\\u0073k-live-0123456789\"}"}`, `{"arguments":"{\"q\":\"[REDACTED]\"}"}`},
		{"pieces",
			"data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\"key: sk-li\"}}]}\n\n" +
				"data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\"ve-01234\"}}]}\n\n" +
				"data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\"56789 ok\"}}]}\n\n",
			"data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\"key: [REDACTED]\"}}]}\n\n" +
				"data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\"\"}}]}\n\n" +
				"data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\" ok\"}}]}\n\n"},
		{"pieces escaped", `{"d":"sk-\u006c"}` + "\n" + `{"d":"ive-0123456789"}`, `{"d":"[REDACTED]"}` + "\n" + `{"d":""}`},
		{"other places", `{"a":"sk-live-"}` + "\n" + `{"b":"0123456789"}`, `{"a":"sk-live-"}` + "\n" + `{"b":"0123456789"}`},
		{"not json", `say "sk-li" and "ve-0123456789"`, `say "sk-li" and "ve-0123456789"`},
	} {
		if got := NewSecret(key).String(tc.in); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
		if got := string(NewSecret(key).Bytes([]byte(tc.in))); got != tc.want {
			t.Errorf("%s (Bytes):\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	// The short dummy key of tests still leaves ordinary words alone.
	if got := NewSecret("o").String(`{"a":"hell"}` + "\n" + `{"a":"oh"}`); got != `{"a":"hell"}`+"\n"+`{"a":"oh"}` {
		t.Errorf("dummy key: %s", got)
	}
}
