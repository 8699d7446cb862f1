package typescript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/codegen/model"
)

// Escaping: descriptions, defaults, names and patterns are data, never
// code. They reach a generated file only as string literals made by
// jsString (or values made by jsValue from JSON) and as JSDoc comments made
// by docComment.

// jsString returns s as a double-quoted JavaScript string literal. Quotes,
// backslashes, every control character, the line and paragraph separators
// (U+2028, U+2029), the BOM, bidirectional and other format characters
// and every non-ASCII non-printable rune are escaped (\uXXXX, surrogate
// pairs for astral ones), so no content can end the literal, continue it
// on another line or hide in it; invalid UTF-8 becomes U+FFFD, as the JSON
// schemas gramc emits have it.
func jsString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case unicode.IsPrint(r) && r != '\u2028' && r != '\u2029':
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16Pair(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// jsValue returns a JSON-ready value (string, json.Number, bool, nil,
// []any, map[string]any: check's defaults and enum values) as a
// JavaScript expression: strings through jsString, object keys quoted and
// "__proto__" computed (a literal "__proto__" key would set the object's
// prototype instead of a property), keys sorted as encoding/json sorts
// them.
func jsValue(v any) string {
	var b strings.Builder
	writeJSValue(&b, v)
	return b.String()
}

func writeJSValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		b.WriteString(jsString(x))
	case json.Number:
		b.WriteString(jsNumber(x.String()))
	case float64:
		b.WriteString(jsNumber(strconv.FormatFloat(x, 'g', -1, 64)))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSValue(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(propertyKey(k))
			b.WriteString(": ")
			writeJSValue(b, x[k])
		}
		if len(keys) > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('}')
	default:
		// Not produced by the checker; encode it as JSON, a valid
		// expression once its strings are re-escaped.
		raw, err := json.Marshal(x)
		if err != nil {
			b.WriteString("null")
			return
		}
		var back any
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if d.Decode(&back) != nil {
			b.WriteString("null")
			return
		}
		writeJSValue(b, back)
	}
}

// jsNumber returns a JSON number's text as a JavaScript numeric literal
// (JSON's are, but for a leading minus, which is an operator: fine in an
// expression), or "0" for text that is not a number.
func jsNumber(s string) string {
	if _, err := strconv.ParseFloat(s, 64); err != nil && !isRangeErr(err) {
		return "0"
	}
	return s
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// propertyKey is an object literal's or an interface's key for a property
// name: the name itself when it is an ASCII identifier name, a string
// literal otherwise, and the computed ["__proto__"] for "__proto__".
func propertyKey(name string) string {
	if name == "__proto__" {
		return `["__proto__"]`
	}
	if isIdentifierName(name) {
		return name
	}
	return jsString(name)
}

// typeKey is propertyKey for a type literal or interface, where a
// "__proto__" key is an ordinary property.
func typeKey(name string) string {
	if isIdentifierName(name) {
		return name
	}
	return jsString(name)
}

// isIdentifierName reports whether s is an ASCII IdentifierName
// ([A-Za-z_$][A-Za-z0-9_$]*); reserved words are identifier names too.
func isIdentifierName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// commentText turns free text into the lines of a JSDoc comment body:
// every line break (\n, \r\n, \r, \v, \f, U+0085, U+2028, U+2029) starts a
// new line, so nothing continues outside the comment; "*/" is broken as
// "*\/" so the comment cannot be closed early; invalid UTF-8, NUL, the BOM
// and every other control or invisible format character (bidi overrides)
// is replaced with U+FFFD (model.TextLines); a line starting with "@" gets
// a leading "\" so text never becomes a JSDoc tag. Leading and trailing
// blank lines are dropped.
func commentText(text string) []string {
	lines := model.TextLines(text)
	for i, l := range lines {
		l = strings.ReplaceAll(l, "*/", `*\/`)
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "@") {
			l = `\` + strings.TrimLeft(l, " \t")
		}
		lines[i] = l
	}
	return lines
}

// writeDoc writes a JSDoc comment at indent from paragraphs (each free
// text), separated by blank comment lines; nothing when all are empty.
func writeDoc(b *strings.Builder, indent string, paragraphs ...string) {
	writeDocLines(b, indent, docLines(paragraphs))
}

// docLines are the sanitized lines of paragraphs, a blank line between two.
func docLines(paragraphs []string) []string {
	var lines []string
	for _, p := range paragraphs {
		body := commentText(p)
		if len(body) == 0 {
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, body...)
	}
	return lines
}

// writeDocLines writes lines (already sanitized) as a JSDoc comment.
func writeDocLines(b *strings.Builder, indent string, lines []string) {
	if len(lines) == 0 {
		return
	}
	b.WriteString(indent)
	b.WriteString("/**\n")
	writePrefixed(b, indent+" *", lines)
	b.WriteString(indent)
	b.WriteString(" */\n")
}

// writeLineComments writes free text as // comments (the file's header
// lines), sanitized as commentText does.
func writeLineComments(b *strings.Builder, text string) {
	writePrefixed(b, "//", commentText(text))
}

// writePrefixed writes each of lines after prefix and a space (an empty
// one after prefix alone).
func writePrefixed(b *strings.Builder, prefix string, lines []string) {
	for _, l := range lines {
		b.WriteString(prefix)
		if l != "" {
			b.WriteByte(' ')
			b.WriteString(l)
		}
		b.WriteByte('\n')
	}
}
