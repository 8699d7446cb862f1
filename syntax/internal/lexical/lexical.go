// Package lexical holds gram's lexical rules that more than the scanner
// needs: where comments, gaps, fences and tagged strings begin and end.
// The scanner (package syntax) and the reference-vocabulary tree views
// (package syntax/reftree) both read them from here.
package lexical

import (
	"strings"
	"unicode/utf8"
)

// RuneCount is utf8.RuneCountInString, fast on ASCII.
func RuneCount(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.RuneCountInString(s)
		}
	}
	return len(s)
}

// TaggedSplit returns, for a tagged string token "tag`content`" (the tag
// and the string may be separated by whitespace and comments), the end of
// the tag and the offset of the opening backtick.
func TaggedSplit(v string) (tagEnd, quote int) {
	for tagEnd < len(v) && IsSymbolChar(v[tagEnd]) {
		tagEnd++
	}
	return tagEnd, SkipGap(v, tagEnd, true)
}

// QuotedText is the text of a quoted string token v (quote, text, closing
// quote): it ends at the closing quote or at a line break, after which only
// whitespace may precede the closing quote.
func QuotedText(v string) string {
	s := v[1 : len(v)-1]
	if nl := strings.IndexByte(s, '\n'); nl >= 0 {
		s = s[:nl]
	}
	return s
}

// FenceHeader reads the header of a fenced string opening at start
// (src[start:] begins with ```): optional space, an optional tag symbol,
// optional space, then the line break. It returns the end of the tag (-1
// without a tag) and the offset of the line break (-1 when the header is
// malformed). Space here is a space, tab, carriage return, form feed or
// vertical tab, never a line break.
func FenceHeader(src string, start int) (tagEnd, nl int) {
	i := SkipGap(src, start+3, false)
	tagEnd = -1
	if i < len(src) && IsSymbolStart(src[i]) {
		for i < len(src) && IsSymbolChar(src[i]) {
			i++
		}
		tagEnd = i
		i = SkipGap(src, i, false)
	}
	if i >= len(src) || src[i] != '\n' {
		return tagEnd, -1
	}
	return tagEnd, i
}

// FenceContentStart returns the offset where the reference grammar's
// string_content of a fenced string starts: the line-break token after the
// header takes every line break that immediately follows it.
func FenceContentStart(raw string, nl int) int {
	i := nl + 1
	for i < len(raw) && raw[i] == '\n' {
		i++
	}
	return i
}

// SkipGap returns the offset of the first byte at or after i that is not
// whitespace; line breaks count as whitespace only when nl is set.
//
// The reference grammar also allows a comment in such a gap (between a tag
// and its string, or after the opening fence), placing it inside the
// string's node; gram.Format cannot keep a comment there, so gramc rejects
// it (known difference, see syntax/doc.go).
func SkipGap(src string, i int, nl bool) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\r', '\f', '\v':
			i++
		case '\n':
			if !nl {
				return i
			}
			i++
		default:
			return i
		}
	}
	return i
}

// CommentEnd returns the end of the // comment at i (the next line break or
// the end of src) and the offset of the first NUL byte in it, or -1: the
// reference lexer ends a comment, like a string, at a NUL byte, which then
// cannot be read.
func CommentEnd(src string, i int) (end, nul int) {
	end = len(src)
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		end = i + j
	}
	if j := strings.IndexByte(src[i:end], 0); j >= 0 {
		return end, i + j
	}
	return end, -1
}

func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// IsSymbolStart reports whether c may start a symbol: [a-zA-Z_].
func IsSymbolStart(c byte) bool { return isLetter(c) || c == '_' }

// IsSymbolChar reports whether c may continue a symbol: [0-9a-zA-Z_.\-@].
func IsSymbolChar(c byte) bool {
	return IsSymbolStart(c) || isDigit(c) || c == '.' || c == '-' || c == '@'
}

// SkipSpace returns the offset of the first byte at or after i that is
// neither whitespace (line breaks included) nor inside a // comment.
func SkipSpace(src string, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\r', '\f', '\v', '\n':
			i++
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				i, _ = CommentEnd(src, i)
				continue
			}
			return i
		default:
			return i
		}
	}
	return i
}
