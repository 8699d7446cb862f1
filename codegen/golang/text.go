package golang

import (
	"strconv"

	"github.com/gramc-dev/gramc/codegen/model"
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
// bidirectional formatting characters) is replaced (model.TextLines).
// "*/" is harmless in a line comment.
func commentLines(text string) []string {
	lines := model.TextLines(text)
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
