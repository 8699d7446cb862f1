// Package ast declares the public syntax tree of gram notation.
//
// The tree is plain Go data: it knows nothing of how it was parsed (package
// syntax builds it) and every node answers Pos and End. Positions are
// 1-based lines and columns counted in characters (runes), plus a 0-based
// byte offset; End is exclusive.
//
// A node stores only the byte offsets of its start and end and a pointer to
// its file's Source, which turns offsets into lines and columns on demand
// (as go/token.File does). That keeps a node's position at 16 bytes instead
// of 24 for two full positions, which matters: a parsed tree has a node for
// every five or six bytes of source.
package ast

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Pos is a position in a source file. The fields are 32-bit: files are
// limited to 2 GiB, far beyond any gram document.
type Pos struct {
	Offset int32 // byte offset, 0-based
	Line   int32 // 1-based
	Column int32 // 1-based, counted in characters (runes)
}

// IsValid reports whether p is a real position (Line >= 1).
func (p Pos) IsValid() bool { return p.Line > 0 }

// String prints "line:col".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// Range is a span of a named file; End is exclusive.
type Range struct {
	File  string
	Start Pos
	End   Pos
}

// String prints "file:line:col" of the start, or just "file" for a range
// with no line (the whole file: one that cannot be read).
func (r Range) String() string {
	if r.File == "" {
		return r.Start.String()
	}
	if r.Start.Line == 0 {
		return r.File
	}
	return r.File + ":" + r.Start.String()
}

// Contains reports whether q lies inside r (both in the same file).
func (r Range) Contains(q Range) bool {
	return r.File == q.File && r.Start.Offset <= q.Start.Offset && q.End.Offset <= r.End.Offset
}

// Source is the text of a parsed file. It converts byte offsets into
// positions: lines end at "\n", and columns count characters (a byte that
// is not valid UTF-8 counts as one character, as does a byte-order mark).
// The tables it needs are built on first use, so a parse that never asks
// for a line or column does not pay for them. A Source is safe for
// concurrent use.
type Source struct {
	text string

	once  sync.Once
	lines []int32 // offset of the first byte of each line
	ascii bool    // every byte < 0x80: a column is an offset difference
	// When the text is not all ASCII, the character count at checkpoints
	// about every checkpointSize bytes (on character boundaries), so that
	// a column on a very long line costs at most one block's count.
	cpOff, cpRunes []int32
	// The index of the line of the last lookup: tree walks ask about
	// nearby offsets, so most lookups need no search.
	lastLine atomic.Int32
}

// checkpointSize is the distance between character-count checkpoints.
const checkpointSize = 1024

// NewSource returns the Source of text. Offsets passed to its methods are
// byte offsets into text.
func NewSource(text string) *Source { return &Source{text: text} }

// Text returns the source text.
func (s *Source) Text() string { return s.text }

func (s *Source) init() {
	s.once.Do(func() {
		text := s.text
		s.lines = make([]int32, 1, strings.Count(text, "\n")+1)
		for i := 0; ; {
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			s.lines = append(s.lines, int32(i))
		}
		s.ascii = isASCII(text)
		if s.ascii {
			return
		}
		k := len(text)/checkpointSize + 1
		s.cpOff = make([]int32, 0, k)
		s.cpRunes = make([]int32, 0, k)
		runes, next := 0, 0
		for i := 0; i < len(text); {
			if i >= next {
				s.cpOff = append(s.cpOff, int32(i))
				s.cpRunes = append(s.cpRunes, int32(runes))
				next = (i/checkpointSize + 1) * checkpointSize
			}
			if text[i] < utf8.RuneSelf {
				i++
			} else {
				_, size := utf8.DecodeRuneInString(text[i:])
				i += size
			}
			runes++
		}
	})
}

// isASCII reports whether every byte of text is below 0x80, eight bytes at
// a time.
func isASCII(text string) bool {
	i := 0
	for ; i+8 <= len(text); i += 8 {
		w := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// runesBefore counts the characters of text[:off]; off is on a character
// boundary.
func (s *Source) runesBefore(off int) int {
	k := sort.Search(len(s.cpOff), func(i int) bool { return int(s.cpOff[i]) > off }) - 1
	if k < 0 {
		return utf8.RuneCountInString(s.text[:off])
	}
	return int(s.cpRunes[k]) + utf8.RuneCountInString(s.text[s.cpOff[k]:off])
}

// Position returns the position of byte offset off (clamped to the text).
func (s *Source) Position(off int) Pos {
	off, i := s.lineOf(off)
	start := int(s.lines[i])
	col := off - start
	switch {
	case s.ascii:
	case col <= checkpointSize:
		col = utf8.RuneCountInString(s.text[start:off])
	default: // a long line: count from the nearest checkpoints
		col = s.runesBefore(off) - s.runesBefore(start)
	}
	return Pos{Offset: int32(off), Line: int32(i + 1), Column: int32(col + 1)}
}

// line returns the index of the line that holds offset off. It searches
// outward from the line of the previous lookup (galloping), so a walk over
// a tree, which asks about nearby offsets, costs a few steps per lookup.
func (s *Source) line(off int) int {
	lines := s.lines
	i := min(int(s.lastLine.Load()), len(lines)-1)
	var lo, hi int // the answer is in [lo, hi)
	if int(lines[i]) <= off {
		lo = i
		for step := 1; ; step *= 2 {
			if j := i + step; j >= len(lines) || int(lines[j]) > off {
				hi = min(j, len(lines))
				break
			}
			lo = i + step
		}
	} else {
		hi = i
		for step := 1; ; step *= 2 {
			if j := i - step; j < 0 || int(lines[j]) <= off {
				lo = max(j, 0)
				break
			}
			hi = i - step
		}
	}
	// lines[lo] <= off, and off < lines[hi] when hi < len(lines).
	n := sort.Search(hi-lo, func(k int) bool { return int(lines[lo+k]) > off })
	i = lo + n - 1
	s.lastLine.Store(int32(i))
	return i
}

// Line returns the 1-based line of byte offset off (clamped to the text):
// Position without the column.
func (s *Source) Line(off int) int {
	_, i := s.lineOf(off)
	return i + 1
}

// lineOf clamps off to the text and returns it with the index of its line.
func (s *Source) lineOf(off int) (int, int) {
	off = max(0, min(off, len(s.text)))
	s.init()
	return off, s.line(off)
}

// Span returns the span of text[start:end].
func (s *Source) Span(start, end int) Span {
	return Span{start: int32(start), end: int32(end), src: s}
}

// Span is embedded in every node: the byte offsets of the node's first
// character and of the character after its last, in its file's Source.
type Span struct {
	start, end int32
	src        *Source
}

// Pos returns the position of the node's first character. A span that
// belongs to no Source (a node built by hand) has only an offset.
func (s Span) Pos() Pos {
	if s.src == nil {
		return Pos{Offset: s.start}
	}
	return s.src.Position(int(s.start))
}

// End returns the position just after the node's last character.
func (s Span) End() Pos {
	if s.src == nil {
		return Pos{Offset: s.end}
	}
	return s.src.Position(int(s.end))
}

// Offsets returns the byte offsets of the span's start and (exclusive)
// end, without computing lines and columns.
func (s Span) Offsets() (start, end int) { return int(s.start), int(s.end) }

// Source returns the Source the span belongs to, or nil.
func (s Span) Source() *Source { return s.src }

// text returns the source text the span covers ("" without a Source).
func (s Span) text() string {
	if s.src == nil {
		return ""
	}
	return s.src.text[s.start:s.end]
}

// Node is implemented by every syntax tree node.
type Node interface {
	Pos() Pos
	End() Pos
	// Offsets returns the node's byte span without computing lines and
	// columns.
	Offsets() (start, end int)
}

// Missing reports whether n is nil, or a nil pointer of a node type: a
// part a partial tree (one with syntax errors) lacks.
func Missing(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// RangeOf returns the range of n in the named file.
func RangeOf(file string, n Node) Range {
	return Range{File: file, Start: n.Pos(), End: n.End()}
}
