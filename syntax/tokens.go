package syntax

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/syntax/internal/lexical"
)

// tokSpan is the span of token t in src.
func tokSpan(src *ast.Source, t *lexer.Token) ast.Span {
	return src.Span(t.Pos.Offset, t.Pos.Offset+len(t.Value))
}

// span is the span of the tokens toks in src, from the first one's start
// to the last one's end.
func span(src *ast.Source, toks []lexer.Token) ast.Span {
	if len(toks) == 0 {
		return ast.Span{}
	}
	last := &toks[len(toks)-1]
	return src.Span(toks[0].Pos.Offset, last.Pos.Offset+len(last.Value))
}

// identifier lowers an identifier token (a symbol, a `quoted name` or an
// integer) with span sp.
func identifier(t *lexer.Token, sp ast.Span) ast.Identifier {
	id := ast.Identifier{Span: sp, Kind: ast.SymbolIdentifier, Name: t.Value}
	switch t.Type {
	case tBTString:
		id.Kind, id.Name = ast.QuotedIdentifier, unquote(t.Value)
	case tInteger:
		id.Kind = ast.IntegerIdentifier
	}
	return id
}

// key lowers a key token with span sp.
func key(t *lexer.Token, sp ast.Span) ast.Key {
	k := ast.Key{Span: sp}
	switch t.Type {
	case tBTString:
		k.Kind = ast.QuotedKey
		k.Name = unquote(t.Value)
	case tDQString:
		k.Kind = ast.DoubleQuotedKey
		k.Name = unquote(t.Value)
	default:
		k.Kind = ast.SymbolKey
		k.Name = t.Value
	}
	return k
}

// number lowers a number token with span sp; a (which may be nil)
// allocates.
func number(a *arena, t *lexer.Token, sp ast.Span) *ast.Number {
	var n *ast.Number
	if a != nil {
		n = a.numbers.new()
	} else {
		n = new(ast.Number)
	}
	n.Span = sp
	// Alike in shape to handparse.go's setArrowKind (a token's spelling to
	// an ast kind); the two map different tokens and share nothing.
	switch t.Type {
	case tDecimal:
		n.Kind = ast.Decimal
	case tHex:
		n.Kind = ast.Hexadecimal
	case tOctal:
		n.Kind = ast.Octal
	case tMeasurement:
		n.Kind = ast.Measurement
	default:
		n.Kind = ast.Integer
	}
	return n
}

// stringValue lowers a one-token scalar (a symbol, a boolean, a string or a
// tagged string) with span sp; a (which may be nil) allocates.
func stringValue(a *arena, t *lexer.Token, sp ast.Span) ast.Value {
	v := t.Value
	if a == nil {
		a = &arena{} // the reference lowering only: one slab per value
	}
	switch t.Type {
	case tSymbol:
		switch v {
		case "true", "false":
			b := a.bools.new()
			*b = ast.Boolean{Value: v == "true", Span: sp}
			return b
		}
		s := a.symbols.new()
		*s = ast.Symbol{Name: v, Span: sp}
		return s
	case tSQString, tDQString, tBTString:
		s := a.strings.new()
		*s = ast.String{Kind: ast.SingleQuoted, Value: unquote(v), Span: sp}
		switch t.Type {
		case tDQString:
			s.Kind = ast.DoubleQuoted
		case tBTString:
			s.Kind = ast.Backticked
		}
		return s
	case tTagged:
		tagEnd, q := lexical.TaggedSplit(v)
		return &ast.TaggedString{Tag: v[:tagEnd], Value: unquote(v[q:]), Span: sp}
	case tFenced:
		tag, content := splitFence(v)
		if tag != "" {
			return &ast.TaggedString{Tag: tag, Fenced: true, Value: content, Span: sp}
		}
		s := a.strings.new()
		*s = ast.String{Kind: ast.Fenced, Value: content, Span: sp}
		return s
	}
	return nil
}

// splitFence splits a fenced string token "```tag\ncontent```" into its tag
// and content. The content starts after the line break that ends the
// opening fence's header and ends before the closing fence.
func splitFence(v string) (tag, content string) {
	tagEnd, nl := lexical.FenceHeader(v, 0)
	if tagEnd >= 0 {
		tag = strings.TrimLeft(v[3:tagEnd], " \t\r\f\v")
	}
	return tag, v[nl+1 : len(v)-3]
}

// unquote removes the quotes of a single-line string token and decodes its
// escapes. The scanner has already checked them.
func unquote(v string) string {
	s := lexical.QuotedText(v)
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default: // \\ \/ \" \' \`
			b.WriteByte(e)
		}
	}
	return b.String()
}
