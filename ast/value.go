package ast

// Value is a property or annotation value: *Number, *RangeValue, *Boolean,
// *String, *TaggedString, *Symbol, *Array or *Map.
type Value interface {
	Node
	valueNode()
}

// NumberKind is the lexical kind of a number.
type NumberKind int

const (
	Integer     NumberKind = iota // 42, -3
	Decimal                       // 2.5
	Hexadecimal                   // 0x1F
	Octal                         // 017
	Measurement                   // 10kg, -2cm
)

// String returns the reference grammar's node name.
func (k NumberKind) String() string {
	switch k {
	case Integer:
		return "integer"
	case Decimal:
		return "decimal"
	case Hexadecimal:
		return "hexadecimal"
	case Octal:
		return "octal"
	case Measurement:
		return "measurement"
	}
	return "number"
}

// Number is a numeric literal. Its text is its source text (Raw).
type Number struct {
	Kind NumberKind
	Span
}

// Raw returns the number exactly as written, e.g. "-2.5" or "10kg".
func (n *Number) Raw() string { return n.text() }

// Unit returns a measurement's alphabetic suffix ("kg" of "10kg"), or "".
func (n *Number) Unit() string {
	if n.Kind != Measurement {
		return ""
	}
	raw := n.Raw()
	i := len(raw)
	for i > 0 && (raw[i-1]|0x20 >= 'a' && raw[i-1]|0x20 <= 'z') {
		i--
	}
	return raw[i:]
}

// RangeValue is `lo..hi`, `lo...` or `...hi`; an absent bound is nil.
type RangeValue struct {
	Lower *Number
	Upper *Number
	Span
}

// Boolean is `true` or `false`.
type Boolean struct {
	Value bool
	Span
}

// StringKind says how a string literal was quoted.
type StringKind int

const (
	SingleQuoted StringKind = iota // 'a'
	DoubleQuoted                   // "a"
	Backticked                     // `a`
	Fenced                         // ```\n...\n```
)

// String is a string literal. Value is the decoded content.
type String struct {
	Kind  StringKind
	Value string
	Span
}

// Raw returns the exact source text including quotes or fences (the
// formatter prints it, so fenced strings survive byte for byte).
func (s *String) Raw() string { return s.text() }

// TaggedString is tag`content` or a fenced ```tag\n...``` string.
type TaggedString struct {
	Tag    string
	Fenced bool
	Value  string
	Span
}

// Raw returns the exact source text, tag and quotes or fences included.
func (s *TaggedString) Raw() string { return s.text() }

// Symbol is a bare word used as a value, e.g. `String`.
type Symbol struct {
	Name string
	Span
}

// Array is `[v1, v2, ...]`: non-empty, scalars only.
type Array struct {
	Elements []Value
	Span
}

// Map is `{k: v, ...}` used as a value: scalar values only.
type Map struct {
	Entries []MapEntry
	Span
}

// MapEntry is one `key: value` of a map.
type MapEntry struct {
	Key   Key
	Value Value
	Span
}

// The marker methods close Value to its node types, as ast.go's
// patternNode closes Pattern.
func (*Number) valueNode()       {}
func (*RangeValue) valueNode()   {}
func (*Boolean) valueNode()      {}
func (*String) valueNode()       {}
func (*TaggedString) valueNode() {}
func (*Symbol) valueNode()       {}
func (*Array) valueNode()        {}
func (*Map) valueNode()          {}
