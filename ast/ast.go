package ast

// File is one parsed gram document: an optional header record followed by
// top-level patterns. Comments holds every comment in source order.
type File struct {
	Name     string
	Header   *Record   // the optional document header record, or nil
	Patterns []Pattern // top-level patterns, in source order
	Comments []*Comment
	Span
}

// Comment is a `//` line comment. Text includes the leading "//" and excludes
// the line terminator.
type Comment struct {
	Text string
	Span
}

// Pattern is a pattern: *SubjectPattern, *NodePattern, *RelationshipPattern,
// *AnnotatedPattern, or (only as an element of a subject pattern)
// *PatternReference.
type Pattern interface {
	Node
	patternNode()
}

// Subject is the identity, labels and record that a node, a subject pattern
// or an arrow may carry. Each part is optional.
type Subject struct {
	Identifier *Identifier // nil when absent
	Labels     []Label     // nil when absent
	Record     *Record     // nil when absent
}

// IsEmpty reports whether the subject has no part at all.
func (s *Subject) IsEmpty() bool {
	return s == nil || (s.Identifier == nil && len(s.Labels) == 0 && s.Record == nil)
}

// SubjectPattern is `[subject | e1, e2, ...]`, `[subject]` or `[]`.
type SubjectPattern struct {
	Subject
	Elements []Pattern // nil when there is no "|"
	Span
}

// NodePattern is `(subject)` or `()`. Nodes never have elements.
type NodePattern struct {
	Subject
	Span
}

// RelationshipPattern is `left arrow right`; Right is a *NodePattern or a
// further *RelationshipPattern (paths are right-recursive).
type RelationshipPattern struct {
	Left  *NodePattern
	Arrow *Arrow
	Right Pattern
	Span
}

// AnnotatedPattern is one or more annotations wrapping a subject or path
// pattern.
type AnnotatedPattern struct {
	Annotations []Annotation
	Pattern     Pattern // *SubjectPattern, *NodePattern or *RelationshipPattern
	Span
}

// PatternReference is a bare identifier among a subject pattern's elements:
// a reference to a pattern defined elsewhere.
type PatternReference struct {
	Identifier *Identifier
	Span
}

// The marker methods close Pattern to its node types, as go/ast's
// exprNode does; value.go's valueNode closes Value the same way.
func (*SubjectPattern) patternNode()      {}
func (*NodePattern) patternNode()         {}
func (*RelationshipPattern) patternNode() {}
func (*AnnotatedPattern) patternNode()    {}
func (*PatternReference) patternNode()    {}

// Annotation is *PropertyAnnotation or *IdentifiedAnnotation.
type Annotation interface {
	Node
	annotationNode()
}

// PropertyAnnotation is `@key(value)`.
type PropertyAnnotation struct {
	Key   *Symbol
	Value Value
	Span
}

// IdentifiedAnnotation is `@@id`, `@@:Label` or `@@id:Label`.
type IdentifiedAnnotation struct {
	Identifier *Identifier // nil when absent
	Labels     []Label     // nil when absent
	Span
}

func (*PropertyAnnotation) annotationNode()   {}
func (*IdentifiedAnnotation) annotationNode() {}

// ArrowKind is the direction of a relationship.
type ArrowKind int

const (
	RightArrow         ArrowKind = iota // -->  ==>  ~~>
	LeftArrow                           // <--  <==  <~~
	UndirectedArrow                     // --   ==   ~~
	BidirectionalArrow                  // <--> <==> <~~>
)

// String returns the reference grammar's node name ("right_arrow", ...).
func (k ArrowKind) String() string {
	switch k {
	case RightArrow:
		return "right_arrow"
	case LeftArrow:
		return "left_arrow"
	case UndirectedArrow:
		return "undirected_arrow"
	case BidirectionalArrow:
		return "bidirectional_arrow"
	}
	return "arrow"
}

// ArrowStyle is the line an arrow is drawn with.
type ArrowStyle int

const (
	SingleArrow   ArrowStyle = iota // -
	DoubleArrow                     // =
	SquiggleArrow                   // ~
)

// Arrow is the relationship between two nodes, e.g. `-->` or `-[r:KNOWS]->`.
type Arrow struct {
	Kind  ArrowKind
	Style ArrowStyle
	// Subject is non-nil when the arrow has brackets (`-[...]->`); it may
	// be empty (`-[]->`).
	Subject *Subject
	Span
}

// Identifier names a pattern: a symbol, a backtick-quoted name or an integer.
type Identifier struct {
	Kind IdentifierKind
	Name string // the name with quotes removed and escapes decoded
	Span
}

// IdentifierKind says how an identifier was written.
type IdentifierKind int

const (
	SymbolIdentifier  IdentifierKind = iota // name
	QuotedIdentifier                        // `quoted name`
	IntegerIdentifier                       // 42
)

// Label is one `:Name` or `::Name`. A subject's labels are a slice of
// them (`:A:B` is two), stored by value: a tree has a label for about every
// sixty bytes of source.
type Label struct {
	DoubleColon bool   // written with "::"
	Quoted      bool   // name written in backticks
	Name        string // decoded
	Span
}

// Record is `{k: v, ...}` attached to a subject or used as the header. Its
// properties (and their keys) are stored by value, for the same reason as
// labels.
type Record struct {
	Properties []Property
	Span
}

// Property is one `key: value` (or `key:: value`) of a record.
type Property struct {
	Key         Key
	DoubleColon bool
	Value       Value
	Span
}

// Key is a record or map key.
type Key struct {
	Kind KeyKind
	Name string // decoded
	Span
}

// KeyKind says how a key was written.
type KeyKind int

const (
	SymbolKey       KeyKind = iota // name
	QuotedKey                      // `name`
	DoubleQuotedKey                // "name"
)
