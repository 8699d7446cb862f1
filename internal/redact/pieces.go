package redact

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/internal/jsonstr"
)

// maxPathDepth bounds the nesting Pieces tells places apart by: deeper
// strings share their ancestor's place (a hostile document cannot make the
// work quadratic).
const maxPathDepth = 64

// literal is one JSON string literal of a text: data[start:end], quotes
// included, at place path.
type literal struct {
	start, end int
	path       string
}

// Pieces redacts secrets from the JSON string literals of data as a reader
// of the JSON sees them, where a byte-for-byte search cannot find them:
//
//   - decoded, so that a secret written with escapes ("\u0073k-...") is
//     found, and again in the decoded text's own escapes (a tool call's
//     arguments, JSON inside a JSON string);
//   - joined with the strings at the same place (the same path of keys
//     and indexes) of the JSON values that come after it in data — the
//     pieces of a streamed answer, one per event — so that a secret split
//     across events is found whole.
//
// match returns the [start, end) of each secret in a text. A secret's
// first piece is replaced by Marker and its other pieces are removed, so
// that the pieces still join into the redacted text; the strings changed
// are written again as JSON strings, and the rest of data is kept byte for
// byte. Data that is not JSON (or is only partly) is read as far as its
// string literals go; Pieces returns data itself when there is nothing to
// redact.
func Pieces(data []byte, match func(text string) [][2]int) []byte {
	lits := literals(data)
	if len(lits) == 0 {
		return data
	}
	groups := map[string][]int{}
	var order []string
	for i, l := range lits {
		if _, ok := groups[l.path]; !ok {
			order = append(order, l.path)
		}
		groups[l.path] = append(groups[l.path], i)
	}
	// repl[i] is the new text of literal i (nil: unchanged).
	repl := map[int][]byte{}
	for _, path := range order {
		idx := groups[path]
		pieces := make([]string, len(idx))
		var text strings.Builder
		offs := make([]int, len(idx)+1)
		for k, i := range idx {
			s, ok := decodeString(data[lits[i].start:lits[i].end])
			if !ok {
				// Not a JSON string after all: it joins nothing.
				s = ""
			}
			pieces[k] = s
			offs[k] = text.Len()
			text.WriteString(s)
		}
		offs[len(idx)] = text.Len()
		spans := secretSpans(text.String(), match)
		if len(spans) == 0 {
			continue
		}
		for k, i := range idx {
			if out, changed := cutPiece(pieces[k], offs[k], spans); changed {
				repl[i] = jsonstr.AppendString(nil, out)
			}
		}
	}
	if len(repl) == 0 {
		return data
	}
	var out []byte
	last := 0
	for i, l := range lits {
		if r, ok := repl[i]; ok {
			out = append(out, data[last:l.start]...)
			out = append(out, r...)
			last = l.end
		}
	}
	return append(out, data[last:]...)
}

// secretSpans are the [start, end) in text of each secret match finds in
// it, or in it with its JSON escapes decoded, merged where they overlap.
func secretSpans(text string, match func(string) [][2]int) [][2]int {
	spans := match(text)
	if strings.IndexByte(text, '\\') >= 0 {
		u, from, to := unescape(text)
		for _, m := range match(u) {
			spans = append(spans, [2]int{from[m[0]], to[m[1]-1]})
		}
	}
	if len(spans) < 2 {
		return spans
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	merged := spans[:1]
	for _, s := range spans[1:] {
		if last := &merged[len(merged)-1]; s[0] < last[1] {
			last[1] = max(last[1], s[1])
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// cutPiece applies spans (offsets in the joined text) to piece, which
// starts at off there: the start of a span becomes Marker, the rest of it
// goes.
func cutPiece(piece string, off int, spans [][2]int) (string, bool) {
	end := off + len(piece)
	var b strings.Builder
	last := 0
	changed := false
	for _, s := range spans {
		if s[1] <= off || s[0] >= end {
			continue
		}
		from, to := max(s[0], off)-off, min(s[1], end)-off
		b.WriteString(piece[last:from])
		if s[0] >= off {
			b.WriteString(Marker)
		}
		last, changed = to, true
	}
	if !changed {
		return piece, false
	}
	b.WriteString(piece[last:])
	return b.String(), true
}

// unescape decodes the JSON escapes of text (\uXXXX, surrogate pairs
// included, \n, \", \\, ...); from[k] and to[k] are the [start, end) in
// text of the escape or byte that gave byte k of the result.
func unescape(text string) (u string, from, to []int) {
	var b strings.Builder
	add := func(s string, start, end int) {
		b.WriteString(s)
		for range len(s) {
			from, to = append(from, start), append(to, end)
		}
	}
	for i := 0; i < len(text); {
		if text[i] != '\\' || i+1 == len(text) {
			add(text[i:i+1], i, i+1)
			i++
			continue
		}
		switch c := text[i+1]; c {
		case '"', '\\', '/':
			add(string(c), i, i+2)
			i += 2
		case 'n', 't', 'r', 'b', 'f':
			add(string("\n\t\r\b\f"[strings.IndexByte("ntrbf", c)]), i, i+2)
			i += 2
		case 'u':
			r, n := unicodeEscape(text[i:])
			if n == 0 {
				add(text[i:i+1], i, i+1)
				i++
				continue
			}
			add(string(r), i, i+n)
			i += n
		default:
			add(text[i:i+1], i, i+1)
			i++
		}
	}
	return b.String(), from, to
}

// unicodeEscape reads \uXXXX (and a following \uXXXX low surrogate) at the
// start of s: the rune and the bytes it took, or 0 bytes.
func unicodeEscape(s string) (rune, int) {
	hex4 := func(s string) (rune, bool) {
		if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(s[2:6], 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if r >= 0xD800 && r < 0xDC00 {
		if lo, ok := hex4(s[6:]); ok && lo >= 0xDC00 && lo < 0xE000 {
			return (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000, 12
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// literals are data's JSON string literals that are values (not keys),
// each with its place: the keys and indexes that lead to it in its JSON
// value. data may hold several JSON values (an event stream's data lines)
// and text that is not JSON, whose bytes other than quotes and brackets
// are passed over.
func literals(data []byte) []literal {
	type frame struct {
		obj     bool
		wantKey bool
		key     string
		idx     int
	}
	var stack []frame
	var out []literal
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{':
			stack = append(stack, frame{obj: true, wantKey: true})
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].obj {
					stack[n-1].wantKey = true
				} else {
					stack[n-1].idx++
				}
			}
		case ':':
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].wantKey = false
			}
		case '"':
			end := stringEnd(data, i)
			if end < 0 {
				continue // a quote in text that is not JSON
			}
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
				k, ok := decodeString(data[i:end])
				if !ok {
					k = string(data[i:end])
				}
				stack[n-1].key = k
			} else if len(stack) == 0 {
				// A string outside any JSON value (in text) joins nothing.
				out = append(out, literal{start: i, end: end, path: "#" + strconv.Itoa(len(out))})
			} else {
				var p strings.Builder
				for _, f := range stack[:min(len(stack), maxPathDepth)] {
					p.WriteByte('/')
					if f.obj {
						p.WriteString(strings.ReplaceAll(f.key, "/", "~1"))
					} else {
						p.WriteString(strconv.Itoa(f.idx))
					}
				}
				out = append(out, literal{start: i, end: end, path: p.String()})
			}
			i = end - 1
		}
	}
	return out
}

// decodeString decodes a JSON string literal (quotes included): at once
// when it has no escape, else by encoding/json.
func decodeString(lit []byte) (string, bool) {
	body := lit[1 : len(lit)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		for _, c := range body {
			if c < 0x20 {
				return "", false
			}
		}
		return string(body), true
	}
	var s string
	err := json.Unmarshal(lit, &s)
	return s, err == nil
}

// stringEnd is the index just past the string literal starting at
// data[i] (a quote), or -1 when it does not end on its line.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		case '\n':
			return -1
		}
	}
	return -1
}
