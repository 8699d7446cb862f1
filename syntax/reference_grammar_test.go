package syntax

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The reference grammar of gram notation as participle structs. It follows the
// reference grammar (tree-sitter-gram, docs/gram.ebnf) rule for rule; the
// structs are private and are lowered to the public ast package by
// lower.go. Every struct that becomes a node keeps its matched Tokens (a
// sub-slice of participle's token buffer, no copy) to compute its span.
// The structs are alike in shape (gSubject's and gValue's alternatives,
// gPath's and gScalar's token lists) because each is one rule written in
// participle's tags; they stay one struct per rule, as the grammar is.

// gFile is gram_pattern: an optional header record, then top-level
// patterns.
type gFile struct {
	Header   *gRecord `parser:"@@?"`
	Patterns []*gTop  `parser:"@@*"`
}

// gTop is a top-level pattern: an optionally annotated subject pattern or
// path. Annotated patterns appear only here.
type gTop struct {
	Tokens  []lexer.Token
	Ident   *gIdentAnnot     `parser:"@@?"`
	Props   []*gPropAnnot    `parser:"@@*"`
	Subject *gSubjectPattern `parser:"( @@"`
	Path    *gPath           `parser:"| @@ )"`
}

// gIdentAnnot is `@@id:Label`.
type gIdentAnnot struct {
	Tokens []lexer.Token
	Ident  *gIdentifier `parser:"'@@' @@?"`
	Labels *gLabels     `parser:"@@?"`
}

// gPropAnnot is `@key(value)`.
type gPropAnnot struct {
	Tokens []lexer.Token
	Key    lexer.Token `parser:"'@' @Symbol '('"`
	Value  *gValue     `parser:"@@ ')'"`
}

// gSubjectPattern is `[subject | elements]`.
type gSubjectPattern struct {
	Tokens   []lexer.Token
	Subject  *gSubject   `parser:"'[' @@?"`
	Bar      bool        `parser:"( @'|'"`
	Elements []*gElement `parser:"  @@ ( ',' @@ )* )? ']'"`
}

// gSubject is identifier? labels? record? (at least one part when present).
type gSubject struct {
	Ident  *gIdentifier `parser:"@@?"`
	Labels *gLabels     `parser:"@@?"`
	Record *gRecord     `parser:"@@?"`
}

// gElement is one element of a subject pattern.
type gElement struct {
	Subject *gSubjectPattern `parser:"  @@"`
	Path    *gPath           `parser:"| @@"`
	Ref     *gIdentifier     `parser:"| @@"`
}

// gPath is a node, or a node, an arrow and a further path.
type gPath struct {
	Tokens []lexer.Token
	Left   *gNode  `parser:"@@"`
	Arrow  *gArrow `parser:"( @@"`
	Right  *gPath  `parser:"  @@ )?"`
}

// gNode is `(subject)`.
type gNode struct {
	Tokens  []lexer.Token
	Subject *gSubject `parser:"'(' @@? ')'"`
}

// gArrow is one of the twelve arrows, with an optional bracketed subject.
// The scanner yields arrows in pieces ("<-", "-", "->", ...) exactly as the
// reference grammar's tokens, so `-->` is "-" then "->".
type gArrow struct {
	Tokens  []lexer.Token
	Open    string    `parser:"@('<-' | '-' | '<=' | '=' | '<~' | '~')"`
	Bracket bool      `parser:"( @'['"`
	Subject *gSubject `parser:"  @@? ']' )?"`
	Close   string    `parser:"@('->' | '-' | '=>' | '=' | '~>' | '~')"`
}

// gIdentifier is a symbol, a backtick-quoted name or an integer.
type gIdentifier struct {
	Tok lexer.Token `parser:"@(Symbol | BTString | Integer)"`
}

// gLabels is one or more labels.
type gLabels struct {
	Tokens []lexer.Token
	List   []*docLabel `parser:"@@+"` // the document grammar's rule (topgrammar.go)
}

// gRecord is `{k: v, ...}`.
type gRecord struct {
	Tokens []lexer.Token
	Props  []*gProperty `parser:"'{' ( @@ ( ',' @@ )* )? '}'"`
}

// gProperty is `key: value` or `key:: value`.
type gProperty struct {
	Tokens []lexer.Token
	Key    lexer.Token `parser:"@(Symbol | BTString | DQString)"`
	Sep    string      `parser:"@(':' | '::')"`
	Value  *gValue     `parser:"@@"`
}

// gValue is any value: a scalar, an array or a map.
type gValue struct {
	Scalar *gScalar `parser:"  @@"`
	Array  *gArray  `parser:"| @@"`
	Map    *gMap    `parser:"| @@"`
}

// gScalar is a number, a range, a string, a tagged string, a symbol or a
// boolean (a symbol spelled true or false).
type gScalar struct {
	Tokens []lexer.Token
	// ...upper
	UpperOnly lexer.Token `parser:"( '...' @(Integer | Decimal | Hex | Octal | Measurement)"`
	// number, lower.., lower..upper
	Num   lexer.Token `parser:"| @(Integer | Decimal | Hex | Octal | Measurement)"`
	Dots  string      `parser:"  ( @'..'"`
	Upper lexer.Token `parser:"    @(Integer | Decimal | Hex | Octal | Measurement) | @'...' )?"`
	// everything else is one token
	Other lexer.Token `parser:"| @(Symbol | Tagged | Fenced | SQString | DQString | BTString) )"`
}

// gArray is `[scalar, ...]`.
type gArray struct {
	Tokens []lexer.Token
	Elems  []*gScalar `parser:"'[' @@ ( ',' @@ )* ']'"`
}

// gMap is `{k: scalar, ...}` in value position.
type gMap struct {
	Tokens  []lexer.Token
	Entries []*gMapEntry `parser:"'{' ( @@ ( ',' @@ )* )? '}'"`
}

// gMapEntry is `key: scalar`.
type gMapEntry struct {
	Tokens []lexer.Token
	Key    lexer.Token `parser:"@(Symbol | BTString | DQString) ':'"`
	Value  *gScalar    `parser:"@@"`
}

// refGrammar is the whole of gram notation as a declarative participle
// grammar over fine tokens. ParseFile parses the inside of groups by hand
// (handparse.go) for speed; the tests parse every corpus input with both
// and require the same tree.
var refGrammar = participle.MustBuild[gFile](
	participle.Lexer(lexDef{}),
	participle.UseLookahead(2),
)
