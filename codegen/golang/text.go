package golang

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// commentLines turns free text (a description, a default value, a name)
// into the lines of a Go line comment, each starting with "// ".
//
// Descriptions are data, never code: every kind of line break (\n, \r,
// \v, \f, U+0085, U+2028, U+2029) starts a new comment line, so text can
// never continue outside the comment; each line starts with "// " so a
// description line such as "//go:generate rm -rf /" or "//line x:1" is never
// a directive; invalid UTF-8, NUL, the byte order mark and every other
// character the Go scanner rejects or that is invisible (control and
// bidirectional formatting characters) is replaced. "*/" is harmless in a
// line comment.
func commentLines(text string) []string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	var lines []string
	var b strings.Builder
	flush := func() {
		lines = append(lines, strings.TrimRightFunc(b.String(), unicode.IsSpace))
		b.Reset()
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r == '\r':
			if i < len(text) && text[i] == '\n' {
				i++
			}
			flush()
		case r == '\n' || r == '\v' || r == '\f' || r == '\u0085' || r == '\u2028' || r == '\u2029':
			flush()
		case r == '\t':
			b.WriteRune(r)
		case strconv.IsPrint(r):
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		default:
			// Control characters, NUL, the BOM, bidi overrides and other
			// format characters.
			b.WriteRune('\uFFFD')
		}
	}
	flush()
	// Drop leading and trailing blank lines; keep inner ones (paragraphs).
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			out[i] = "//"
		} else {
			out[i] = "// " + l
		}
	}
	return out
}

// doc builds a doc comment: a first sentence written by the generator
// (it may quote names) and, when text is not empty, a blank comment line and
// the sanitized text.
func doc(first string, text string) []string {
	lines := commentLines(first)
	if body := commentLines(text); len(body) > 0 {
		lines = append(lines, "//")
		lines = append(lines, body...)
	}
	return lines
}

// quote returns s as a Go interpreted string literal. strconv.Quote escapes
// quotes, backslashes, every control character, invalid UTF-8 and the
// non-printable runes (U+2028, U+2029, U+FEFF, bidi overrides), so no
// content can end the literal or hide in it.
func quote(s string) string { return strconv.Quote(s) }
