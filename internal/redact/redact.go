// Package redact keeps secrets (API keys, passwords in URLs) out of what
// gramc prints: debug traces, error messages, anything shown to a user or
// sent to a model. Every provider client redacts through it.
package redact

import (
	"encoding/json"
	"net/url"
	"strings"
)

// Marker replaces a secret.
const Marker = "[REDACTED]"

// Secret redacts one secret value from texts. The zero value redacts
// nothing.
type Secret struct {
	forms []string // the secret as it may appear: raw and JSON-escaped
}

// NewSecret returns a Secret for value. The secret is recognised raw and
// in the escaped forms a JSON encoder may write it in (`\u003c` for `<`,
// `\"` for `"`, ...), so a request body echoed in a trace cannot leak an
// escaped copy.
func NewSecret(value string) Secret {
	if value == "" {
		return Secret{}
	}
	forms := []string{value}
	for _, escapeHTML := range []bool{true, false} {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(escapeHTML)
		_ = enc.Encode(value)
		esc := strings.TrimSuffix(b.String(), "\n")
		esc = esc[1 : len(esc)-1]
		if esc != value && !contains(forms, esc) {
			forms = append(forms, esc)
		}
	}
	return Secret{forms: forms}
}

// String replaces each occurrence of the secret in s that stands as a whole
// token — not inside a longer word — with Marker. A short dummy key such
// as "o" therefore never mangles ordinary text ("connection refused"),
// while "Bearer o" or `"key":"o"` are redacted.
//
// In JSON text the secret is also found as a JSON reader sees it: in a
// string written with escapes ("\u0073k-..."), and split across the
// strings of successive JSON values (a streamed answer's events): see
// Pieces.
func (s Secret) String(text string) string {
	for _, f := range s.forms {
		text = replaceTokens(text, f)
	}
	if len(s.forms) > 0 && strings.IndexByte(text, '"') >= 0 {
		text = string(Pieces([]byte(text), s.match))
	}
	return text
}

// match is where the secret stands as a whole token in text.
func (s Secret) match(text string) [][2]int { return tokenMatches(text, s.forms[0]) }

// Bytes is String for a byte slice; it returns data itself when the secret
// does not occur.
func (s Secret) Bytes(data []byte) []byte {
	for _, f := range s.forms {
		if strings.Contains(string(data), f) {
			return []byte(s.String(string(data)))
		}
	}
	if len(s.forms) > 0 {
		return Pieces(data, s.match)
	}
	return data
}

func replaceTokens(text, secret string) string {
	if secret == "" || !strings.Contains(text, secret) {
		return text
	}
	var b strings.Builder
	last := 0 // text[:last] is written
	for from := 0; ; {
		i := strings.Index(text[from:], secret)
		if i < 0 {
			break
		}
		i += from
		end := i + len(secret)
		if i >= last && !continuesLeft(text, i) && !continuesRight(text, end) {
			b.WriteString(text[last:i])
			b.WriteString(Marker)
			last = end
		}
		from = i + 1
	}
	b.WriteString(text[last:])
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isJoiner(c byte) bool { return c == '-' || c == '_' || c == '.' }

// continuesLeft reports whether the token ending just before text[i] goes
// on into it: a letter or digit, or a joiner ('-', '_', '.') after one.
func continuesLeft(text string, i int) bool {
	if i == 0 {
		return false
	}
	c := text[i-1]
	return isAlnum(c) || isJoiner(c) && i >= 2 && isAlnum(text[i-2])
}

// continuesRight is continuesLeft for the token starting at text[end]: a
// sentence's full stop after a key does not make it part of a longer word.
func continuesRight(text string, end int) bool {
	if end == len(text) {
		return false
	}
	c := text[end]
	return isAlnum(c) || isJoiner(c) && end+1 < len(text) && isAlnum(text[end+1])
}

// URL returns rawURL with the password of its user information replaced
// by Marker ("https://user:[REDACTED]@host/v1"). Text that does not parse
// as a URL is returned unchanged.
func URL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return rawURL
	}
	if _, has := u.User.Password(); !has {
		return rawURL
	}
	u.User = url.UserPassword(u.User.Username(), Marker)
	return strings.Replace(u.String(), url.QueryEscape(Marker), Marker, 1)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
