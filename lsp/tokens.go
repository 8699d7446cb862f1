package lsp

import (
	"context"
	"encoding/binary"
	"iter"
	"strings"

	"go.lsp.dev/protocol"
)

// tokenType is a semantic token type; the order is the legend's.
type tokenType uint8

const (
	tokFunction   tokenType = iota // a tool
	tokParameter                   // a parameter or field
	tokType                        // a type label or declared type
	tokEnum                        // a declared enum
	tokEnumMember                  // an enum's value
	tokProperty                    // a record key
	tokString
	tokNumber
	tokComment
	tokKeyword  // a declaration label (:Tool), true, false
	tokClass    // an agent
	tokOperator // an arrow
	tokVariable // a bare symbol value
)

var tokenTypeNames = []string{
	"function", "parameter", "type", "enum", "enumMember", "property",
	"string", "number", "comment", "keyword", "class", "operator", "variable",
}

// tokenMod is a set of semantic token modifiers.
type tokenMod uint8

const (
	modDeclaration tokenMod = 1 << iota
	modDeprecated
	modDefaultLibrary // a built-in type
)

var tokenModNames = []string{"declaration", "deprecated", "defaultLibrary"}

func tokenLegend() protocol.SemanticTokensLegend {
	return protocol.SemanticTokensLegend{TokenTypes: tokenTypeNames, TokenModifiers: tokenModNames}
}

func (s *server) SemanticTokensFull(ctx context.Context, params *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (*protocol.SemanticTokens, error) {
		return &protocol.SemanticTokens{Data: encodeTokens(f, r.index().file(f.key), 0, len(f.text))}, nil
	})
}

func (s *server) SemanticTokensRange(ctx context.Context, params *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) (*protocol.SemanticTokens, error) {
		start, end, err := offsetsOf(f, params.Range)
		if err != nil {
			return nil, err
		}
		return &protocol.SemanticTokens{Data: encodeTokens(f, r.index().file(f.key), start, end)}, nil
	})
}

// encodeTokens encodes the tokens overlapping [from, to) relative to each
// other, as the protocol asks. A token that spans lines (a fenced string,
// a multi-line comment) is split into one token per line: clients without
// multilineTokenSupport need that.
func encodeTokens(f *file, fi *fileIndex, from, to int) []uint32 {
	data := []uint32{}
	if fi == nil {
		return data
	}
	var prevLine, prevChar uint32
	last := -1
	for t := range fi.tokens.all() {
		start, end := int(t.start), int(t.end)
		if end <= from || start >= to || start < last {
			continue // outside the range, or overlapping the one before
		}
		last = end
		for s := start; s < end; {
			e := end
			if nl := strings.IndexByte(f.text[s:end], '\n'); nl >= 0 {
				e = s + nl
			}
			if e > s {
				ps, pe := f.m.position(s), f.m.position(e)
				delta := ps.Line - prevLine
				char := ps.Character
				if delta == 0 {
					char -= prevChar
				}
				data = append(data, delta, char, pe.Character-ps.Character, uint32(t.typ), uint32(t.mods))
				prevLine, prevChar = ps.Line, ps.Character
			}
			s = e + 1
		}
	}
	return data
}

func (s *server) FoldingRanges(ctx context.Context, params *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	return withDoc(ctx, s, params.TextDocument.URI, func(f *file, p *pkg, r *result) ([]protocol.FoldingRange, error) {
		out := []protocol.FoldingRange{}
		add := func(start, end int, kind protocol.FoldingRangeKind) {
			a, b := f.m.position(start), f.m.position(end)
			if b.Line > a.Line {
				out = append(out, protocol.FoldingRange{StartLine: a.Line, EndLine: b.Line, Kind: kind})
			}
		}
		tree := f.syntax()
		for _, pat := range tree.Patterns {
			if pat == nil {
				continue
			}
			s, e := pat.Offsets()
			add(s, e, protocol.FoldingRangeKindRegion)
		}
		// Runs of comment lines fold together.
		var runStart, runEnd, runLine int = -1, -1, -2
		for _, c := range tree.Comments {
			s, e := c.Offsets()
			line := int(f.m.position(s).Line)
			if line != runLine+1 {
				if runStart >= 0 {
					add(runStart, runEnd, protocol.FoldingRangeKindComment)
				}
				runStart = s
			}
			runEnd, runLine = e, line
		}
		if runStart >= 0 {
			add(runStart, runEnd, protocol.FoldingRangeKindComment)
		}
		return out, nil
	})
}

// tokenList is a file's semantic tokens in the order of their starts,
// packed: for each, the distance from the previous token's start and its
// length (uvarints), then a byte of type and modifiers. About three bytes
// a token where the struct takes 32, and a file has a token for about every
// twelve bytes of text.
type tokenList []byte

// The type and the modifiers share a byte: four bits each.
const (
	_ uint8 = 15 - uint8(tokVariable)
	_ uint8 = 15 - uint8(modDefaultLibrary)
)

// packTokens packs ts, which are sorted by start.
func packTokens(ts []token) tokenList {
	out := make([]byte, 0, 3*len(ts))
	prev := int32(0)
	for _, t := range ts {
		out = binary.AppendUvarint(out, uint64(t.start-prev))
		out = binary.AppendUvarint(out, uint64(t.end-t.start))
		out = append(out, byte(t.typ)|byte(t.mods)<<4)
		prev = t.start
	}
	return exact(out)
}

// all yields the tokens in order.
func (l tokenList) all() iter.Seq[token] {
	return func(yield func(token) bool) {
		start := int32(0)
		for i := 0; i < len(l); {
			d, n := binary.Uvarint(l[i:])
			i += n
			length, m := binary.Uvarint(l[i:])
			i += m
			b := l[i]
			i++
			start += int32(d)
			if !yield(token{start: start, end: start + int32(length), typ: tokenType(b & 15), mods: tokenMod(b >> 4)}) {
				return
			}
		}
	}
}
