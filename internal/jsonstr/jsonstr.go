// Package jsonstr writes JSON strings exactly as gramc's schema emitters
// do, so that the runtime's provider clients, which build payloads around
// those schemas, write byte-identical text without linking the emitters;
// and it is the one way gramc shows a JSON value to people (Text, List) in
// messages, schema descriptions, generated comments and hovers.
package jsonstr

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendString appends s to buf as a JSON string, exactly as the emitters
// write strings.
// Unlike encoding/json it does not escape <, > and &, which providers and
// readers see literally; like it, it escapes U+2028 and U+2029 and replaces
// invalid UTF-8 with U+FFFD.
func AppendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
