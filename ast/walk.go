package ast

// Inspect traverses the tree rooted at n in source order, calling f for each
// node; if f returns false the node's children are skipped. Comments are not
// visited (they live in File.Comments).
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) || !f(n) {
		return
	}
	switch n := n.(type) {
	case *File:
		if n.Header != nil {
			Inspect(n.Header, f)
		}
		for _, p := range n.Patterns {
			Inspect(p, f)
		}
	case *SubjectPattern:
		inspectSubject(&n.Subject, f)
		for _, e := range n.Elements {
			Inspect(e, f)
		}
	case *NodePattern:
		inspectSubject(&n.Subject, f)
	case *RelationshipPattern:
		Inspect(n.Left, f)
		Inspect(n.Arrow, f)
		Inspect(n.Right, f)
	case *Arrow:
		if n.Subject != nil {
			inspectSubject(n.Subject, f)
		}
	case *AnnotatedPattern:
		for _, a := range n.Annotations {
			Inspect(a, f)
		}
		Inspect(n.Pattern, f)
	case *PatternReference:
		Inspect(n.Identifier, f)
	case *PropertyAnnotation:
		Inspect(n.Key, f)
		Inspect(n.Value, f)
	case *IdentifiedAnnotation:
		if n.Identifier != nil {
			Inspect(n.Identifier, f)
		}
		inspectLabels(n.Labels, f)
	case *Record: // walked as *Map is below: two node types, one shape
		for i := range n.Properties {
			Inspect(&n.Properties[i], f)
		}
	case *Property:
		Inspect(&n.Key, f)
		Inspect(n.Value, f)
	case *RangeValue:
		if n.Lower != nil {
			Inspect(n.Lower, f)
		}
		if n.Upper != nil {
			Inspect(n.Upper, f)
		}
	case *Array:
		for _, e := range n.Elements {
			Inspect(e, f)
		}
	case *Map: // as *Record above
		for i := range n.Entries {
			Inspect(&n.Entries[i], f)
		}
	case *MapEntry:
		Inspect(&n.Key, f)
		Inspect(n.Value, f)
	}
}

func inspectSubject(s *Subject, f func(Node) bool) {
	if s.Identifier != nil {
		Inspect(s.Identifier, f)
	}
	inspectLabels(s.Labels, f)
	if s.Record != nil {
		Inspect(s.Record, f)
	}
}

func inspectLabels(ls []Label, f func(Node) bool) {
	for i := range ls {
		Inspect(&ls[i], f)
	}
}

// isNilNode reports whether n is a typed nil pointer.
func isNilNode(n Node) bool {
	switch n := n.(type) {
	case *File:
		return n == nil
	case *SubjectPattern:
		return n == nil
	case *NodePattern:
		return n == nil
	case *RelationshipPattern:
		return n == nil
	case *AnnotatedPattern:
		return n == nil
	case *PatternReference:
		return n == nil
	case *Arrow:
		return n == nil
	case *Identifier:
		return n == nil
	case *Record:
		return n == nil
	case *Property:
		return n == nil
	case *Key:
		return n == nil
	case *Symbol:
		return n == nil
	}
	return false
}
