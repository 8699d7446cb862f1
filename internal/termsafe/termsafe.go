// Package termsafe makes untrusted text safe to print on a terminal: what
// a .gram file, a model, a provider or a tool says can hold escape
// sequences (change the window title, clear the screen, write the
// clipboard), bidirectional overrides that reorder what the reader sees,
// NUL and other control characters, invalid UTF-8, or megabytes on one
// line. Every byte of such text that gramc prints goes through this
// package, which shows control characters escaped, as rustc and the go
// command do (`\x1b`, `\u202e`), and cuts long text with a count.
package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Line returns s for one line of output: every control character,
// newlines included, is escaped (so a name with "\n" cannot forge the next
// line), and s is cut after max bytes (max <= 0: no limit) with a note of
// how much was left out.
func Line(s string, max int) string { return clean(s, max, false) }

// Text returns s for multi-line output: newlines and tabs are kept, every
// other control character is escaped, and s is cut after max bytes (max
// <= 0: no limit).
func Text(s string, max int) string { return clean(s, max, true) }

// IsSafe reports whether s prints as itself: it has no byte Line would
// escape.
func IsSafe(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

func clean(s string, max int, multiline bool) string {
	if (max <= 0 || len(s) <= max) && safeText(s, multiline) {
		return s
	}
	var b strings.Builder
	cut := len(s)
	if max > 0 && len(s) > max {
		cut = max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	b.Grow(cut + 16)
	for i := 0; i < cut; {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case multiline && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && unsafeRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	if cut < len(s) {
		fmt.Fprintf(&b, "… [%d more bytes]", len(s)-cut)
	}
	return b.String()
}

func safeText(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if multiline && (c == '\n' || c == '\t') {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// Unsafe reports whether r does not show as itself: a control character
// (tab, newline and carriage return too) or a Unicode format character
// that reorders or hides text. Line escapes each of them; gramc check
// warns of them in a gram file (syntax's unsafe-character).
func Unsafe(r rune) bool { return unsafeRune(r) }

// unsafeRune reports whether r must not reach a terminal as itself: C0
// and C1 control characters, DEL, and the Unicode format characters that
// reorder or hide text (bidirectional embeddings, overrides and isolates,
// the left-to-right and right-to-left marks, zero-width characters used to
// smuggle text, and the BOM).
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
		r == 0x200e, r == 0x200f, r == 0x061c,
		r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff,
		r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// Width is how many terminal columns r takes when printed: 2 for East
// Asian wide and fullwidth characters (CJK, most emoji), 0 for combining
// marks and other zero-width characters, 1 otherwise. Carets under source
// text line up by it.
func Width(r rune) int {
	switch {
	case r == 0x200b || r == 0x200c || r == 0x200d || r == 0xfeff:
		return 0
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Rune returns how r (the character at src's start, size bytes long)
// prints on a line: itself when safe, else its escape (`\x1b`, `\u202e`;
// an invalid byte is `\xff`).
func Rune(r rune, size int, src []byte) string {
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf(`\x%02x`, src[0])
	}
	if !unsafeRune(r) {
		return string(r)
	}
	return Line(string(r), 0)
}
