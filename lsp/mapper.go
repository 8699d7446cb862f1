package lsp

import (
	"fmt"
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// encoding is the unit LSP positions count characters in, negotiated at
// initialize (positionEncoding): UTF-16 code units by default, UTF-8
// bytes when the client offers it. gramc's own positions are byte offsets.
type encoding int

const (
	utf16Units encoding = iota
	utf8Bytes
)

func (e encoding) kind() protocol.PositionEncodingKind {
	if e == utf8Bytes {
		return protocol.PositionEncodingKindUTF8
	}
	return protocol.PositionEncodingKindUTF16
}

// A mapper converts between byte offsets into one text and LSP positions.
// Lines end at "\n" (a "\r" before it belongs to the line, as gramc's own
// positions count it); the line table is built once per text.
type mapper struct {
	text  string
	lines []int // byte offset of the start of each line
	enc   encoding
}

func newMapper(text string, enc encoding) *mapper {
	lines := make([]int, 1, 1+len(text)/32)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			lines = append(lines, i+1)
		}
	}
	return &mapper{text: text, lines: lines, enc: enc}
}

// lineEnd is the offset of the end of line l's content (before its "\n").
func (m *mapper) lineEnd(l int) int {
	if l+1 < len(m.lines) {
		return m.lines[l+1] - 1
	}
	return len(m.text)
}

// position converts a byte offset (clamped to the text) to a position.
// An offset inside a multi-byte character counts as that character's start.
func (m *mapper) position(off int) protocol.Position {
	off = max(0, min(off, len(m.text)))
	l := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > off }) - 1
	start := m.lines[l]
	var col int
	if m.enc == utf8Bytes {
		col = off - start
		for col > 0 && start+col < len(m.text) && !utf8.RuneStart(m.text[start+col]) {
			col--
		}
	} else {
		for i := start; i < off; {
			r, n := utf8.DecodeRuneInString(m.text[i:])
			if i+n > off {
				break
			}
			col += utf16.RuneLen(r) // an invalid byte decodes as U+FFFD: one unit
			i += n
		}
	}
	return protocol.Position{Line: uint32(l), Character: uint32(col)}
}

// rng converts a byte span to a range.
func (m *mapper) rng(start, end int) protocol.Range {
	return protocol.Range{Start: m.position(start), End: m.position(end)}
}

// errBadPosition is a position outside the text: a JSON-RPC InvalidParams
// error to the client, never a clamp that would silently act elsewhere.
type errBadPosition struct {
	pos   protocol.Position
	lines int
}

func (e errBadPosition) Error() string {
	return fmt.Sprintf("position %d:%d is outside the document (%d lines)", e.pos.Line, e.pos.Character, e.lines)
}

// offset converts a position to a byte offset. A line past the end is an
// error; a character past the end of its line means the line's end, as
// the protocol says; a position inside a character (half a surrogate
// pair, a byte inside a UTF-8 sequence) means that character's start.
func (m *mapper) offset(p protocol.Position) (int, error) {
	if int64(p.Line) >= int64(len(m.lines)) {
		// The position just after a final newline is the end of the text.
		return 0, errBadPosition{p, len(m.lines)}
	}
	start, end := m.lines[p.Line], m.lineEnd(int(p.Line))
	if m.enc == utf8Bytes {
		off := start + int(min(p.Character, uint32(end-start)))
		for off > start && off < len(m.text) && !utf8.RuneStart(m.text[off]) {
			off--
		}
		return off, nil
	}
	col := 0
	for i := start; i < end; {
		if col >= int(p.Character) {
			return i, nil
		}
		r, n := utf8.DecodeRuneInString(m.text[i:])
		w := utf16.RuneLen(r)
		if col+w > int(p.Character) {
			return i, nil // inside a surrogate pair
		}
		col += w
		i += n
	}
	return end, nil
}
