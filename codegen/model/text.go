package model

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/jsonstr"
)

// TextLines splits free text (a description, a default value, a name)
// into the lines an emitter writes into a comment, safe in any language:
// every kind of line break (\n, \r\n, \r, \v, \f, U+0085, U+2028, U+2029)
// starts a new line, so no text continues outside the comment; invalid
// UTF-8, NUL, the byte order mark and every other control or invisible
// format character (bidirectional overrides) is replaced with U+FFFD; a
// tab stays, other spaces become " "; trailing space is cut, and leading
// and trailing blank lines are dropped (inner ones, paragraphs, stay).
// Each emitter adds its own comment's escapes (Go's "// ", JSDoc's "*/").
func TextLines(text string) []string {
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
			b.WriteRune('\uFFFD')
		}
	}
	flush()
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// AppendFieldNotes appends to notes the notes of a field's doc comment,
// in order: its constraints (ConstraintText, quoted by quote), then its
// default (followed by defaultNote, what the language's runtime does
// with it) or "Optional.". An emitter passes a small array of its own,
// which stays on its stack.
func AppendFieldNotes(notes []string, f *check.Param, quote func(string) string, defaultNote string) []string {
	if c := ConstraintText(f.Constraints.Value(), quote); c != "" {
		notes = append(notes, "Constraints: "+c+".")
	}
	switch {
	case f.HasDefault:
		notes = append(notes, "Default: "+jsonstr.Text(f.Default)+defaultNote+".")
	case f.Optional:
		notes = append(notes, "Optional.")
	}
	return notes
}

// ConstraintText summarises the JSON Schema validation keywords of a
// parameter or field for a doc comment ("minimum 1, maximum 14"; the
// runtime enforces them), its pattern quoted as the language writes a
// string (quote).
func ConstraintText(c check.Constraints, quote func(string) string) string {
	var parts []string
	num := func(name string, n *json.Number) {
		if n != nil {
			parts = append(parts, name+" "+n.String())
		}
	}
	integer := func(name string, n *int64) {
		if n != nil {
			parts = append(parts, name+" "+strconv.FormatInt(*n, 10))
		}
	}
	if len(c.Enum) > 0 {
		parts = append(parts, "one of "+jsonstr.Text(c.Enum))
	}
	num("minimum", c.Minimum)
	num("maximum", c.Maximum)
	num("exclusiveMinimum", c.ExclusiveMinimum)
	num("exclusiveMaximum", c.ExclusiveMaximum)
	integer("minLength", c.MinLength)
	integer("maxLength", c.MaxLength)
	if c.Pattern != "" {
		parts = append(parts, "pattern "+quote(c.Pattern))
	}
	if c.Format != "" {
		parts = append(parts, "format "+c.Format)
	}
	integer("minItems", c.MinItems)
	integer("maxItems", c.MaxItems)
	if c.UniqueItems {
		parts = append(parts, "unique items")
	}
	return strings.Join(parts, ", ")
}
