// Package ast declares the public syntax tree of gram notation.
//
// The tree is plain Go data: it knows nothing of how it was parsed (package
// syntax builds it) and every node answers Pos and End. Positions are
// 1-based lines and columns counted in characters (runes), plus a 0-based
// byte offset; End is exclusive.
package ast

import "fmt"

// Pos is a position in a source file. The fields are 32-bit because every
// node carries two positions: this keeps a parsed tree near 10x its source
// (files are limited to 2 GiB, far beyond any gram document).
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

// String prints "file:line:col" of the start.
func (r Range) String() string {
	if r.File == "" {
		return r.Start.String()
	}
	return r.File + ":" + r.Start.String()
}

// Contains reports whether q lies inside r (both in the same file).
func (r Range) Contains(q Range) bool {
	return r.File == q.File && r.Start.Offset <= q.Start.Offset && q.End.Offset <= r.End.Offset
}

// Span is embedded in every node: the node's start and (exclusive) end.
type Span struct {
	StartPos Pos
	EndPos   Pos
}

// Pos returns the position of the node's first character.
func (s Span) Pos() Pos { return s.StartPos }

// End returns the position just after the node's last character.
func (s Span) End() Pos { return s.EndPos }

// Node is implemented by every syntax tree node.
type Node interface {
	Pos() Pos
	End() Pos
}

// RangeOf returns the range of n in the named file.
func RangeOf(file string, n Node) Range {
	return Range{File: file, Start: n.Pos(), End: n.End()}
}
