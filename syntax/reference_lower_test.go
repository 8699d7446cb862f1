package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/diag"
)

// lowerer turns participle's grammar structs into the public ast. It is
// nil-safe throughout because a failed parse hands it a partial tree.
type lowerer struct {
	filename string
	src      *ast.Source
	diags    diag.Diagnostics
}

func (l *lowerer) errorAt(t *lexer.Token, summary, detail string) {
	l.diags = append(l.diags, &diag.Diagnostic{
		Severity: diag.Error,
		Code:     codeSyntax,
		Summary:  summary,
		Detail:   detail,
		Range:    ast.Range{File: l.filename, Start: l.src.Position(t.Pos.Offset), End: l.src.Position(t.Pos.Offset + len(t.Value))},
	})
}

func (l *lowerer) file(g *gFile, f *ast.File) {
	if g == nil {
		return
	}
	if g.Header != nil {
		f.Header = l.record(g.Header)
	}
	for _, p := range g.Patterns {
		if p == nil {
			continue
		}
		if pat := l.top(p); pat != nil {
			f.Patterns = append(f.Patterns, pat)
		}
	}
}

func (l *lowerer) top(g *gTop) ast.Pattern {
	var inner ast.Pattern
	switch {
	case g.Subject != nil:
		inner = l.subjectPattern(g.Subject)
	case g.Path != nil:
		inner = l.path(g.Path)
	}
	if g.Ident == nil && len(g.Props) == 0 {
		return inner
	}
	ap := &ast.AnnotatedPattern{Pattern: inner, Span: span(l.src, g.Tokens)}
	if g.Ident != nil {
		ia := &ast.IdentifiedAnnotation{Span: span(l.src, g.Ident.Tokens)}
		if g.Ident.Ident != nil {
			ia.Identifier = l.identifier(g.Ident.Ident)
		}
		if g.Ident.Labels != nil {
			ia.Labels = l.labels(g.Ident.Labels)
		}
		if ia.Identifier == nil && ia.Labels == nil && len(g.Ident.Tokens) > 0 {
			l.errorAt(&g.Ident.Tokens[0], "@@ needs an identifier or labels",
				"An identified annotation names the annotated pattern: write @@id, @@:Label or @@id:Label before the pattern.")
		}
		ap.Annotations = append(ap.Annotations, ia)
	}
	for _, p := range g.Props {
		if p == nil {
			continue
		}
		pa := &ast.PropertyAnnotation{
			Key:  &ast.Symbol{Name: p.Key.Value, Span: tokSpan(l.src, &p.Key)},
			Span: span(l.src, p.Tokens),
		}
		if p.Value != nil {
			pa.Value = l.value(p.Value)
		}
		ap.Annotations = append(ap.Annotations, pa)
	}
	return ap
}

func (l *lowerer) subjectPattern(g *gSubjectPattern) *ast.SubjectPattern {
	sp := &ast.SubjectPattern{Span: span(l.src, g.Tokens)}
	l.subject(g.Subject, &sp.Subject)
	if g.Bar {
		sp.Elements = make([]ast.Pattern, 0, len(g.Elements))
		for _, e := range g.Elements {
			if e == nil {
				continue
			}
			switch {
			case e.Subject != nil:
				sp.Elements = append(sp.Elements, l.subjectPattern(e.Subject))
			case e.Path != nil:
				sp.Elements = append(sp.Elements, l.path(e.Path))
			case e.Ref != nil:
				id := l.identifier(e.Ref)
				sp.Elements = append(sp.Elements, &ast.PatternReference{Identifier: id, Span: id.Span})
			}
		}
	}
	return sp
}

func (l *lowerer) subject(g *gSubject, s *ast.Subject) {
	if g == nil {
		return
	}
	if g.Ident != nil {
		s.Identifier = l.identifier(g.Ident)
	}
	if g.Labels != nil {
		s.Labels = l.labels(g.Labels)
	}
	if g.Record != nil {
		s.Record = l.record(g.Record)
	}
}

// path lowers a node or a right-recursive relationship chain.
func (l *lowerer) path(g *gPath) ast.Pattern {
	var left *ast.NodePattern
	if g.Left != nil {
		left = &ast.NodePattern{Span: span(l.src, g.Left.Tokens)}
		l.subject(g.Left.Subject, &left.Subject)
	}
	if g.Arrow == nil {
		if left == nil {
			return nil
		}
		return left
	}
	rp := &ast.RelationshipPattern{Left: left, Arrow: l.arrow(g.Arrow), Span: span(l.src, g.Tokens)}
	if g.Right != nil {
		rp.Right = l.path(g.Right)
	}
	return rp
}

func (l *lowerer) arrow(g *gArrow) *ast.Arrow {
	a := &ast.Arrow{Span: span(l.src, g.Tokens)}
	if g.Bracket {
		a.Subject = &ast.Subject{}
		l.subject(g.Subject, a.Subject)
	}
	open, close := g.Open, g.Close
	if open == "" || close == "" {
		return a
	}
	// Kind and style from the pieces are a lowering detail, shared with
	// the parser (the corpus pins them); the grammar is what this checks.
	setArrowKind(a, open, close)
	if close[0] != open[len(open)-1] && len(g.Tokens) > 0 {
		t := &g.Tokens[len(g.Tokens)-1]
		l.errorAt(t, "arrow mixes line styles",
			"An arrow is drawn with one kind of line: -->, ==> or ~~> (and -[r]->, =[r]=>, ~[r]~>). Use the same character on both sides.")
	}
	return a
}

func (l *lowerer) identifier(g *gIdentifier) *ast.Identifier {
	id := identifier(&g.Tok, tokSpan(l.src, &g.Tok))
	return &id
}

func (l *lowerer) labels(g *gLabels) []ast.Label {
	ls := make([]ast.Label, 0, len(g.List))
	for _, gl := range g.List {
		if gl == nil {
			continue
		}
		lb := ast.Label{DoubleColon: gl.Sep == "::", Span: span(l.src, gl.Tokens)}
		if gl.Name.Type == tBTString {
			lb.Quoted = true
			lb.Name = unquote(gl.Name.Value)
		} else {
			lb.Name = gl.Name.Value
		}
		ls = append(ls, lb)
	}
	return ls
}

func (l *lowerer) record(g *gRecord) *ast.Record {
	r := &ast.Record{Span: span(l.src, g.Tokens)}
	if len(g.Props) > 0 {
		r.Properties = make([]ast.Property, 0, len(g.Props))
	}
	for _, p := range g.Props {
		if p == nil {
			continue
		}
		prop := ast.Property{Key: key(&p.Key, tokSpan(l.src, &p.Key)), DoubleColon: p.Sep == "::", Span: span(l.src, p.Tokens)}
		if p.Value != nil {
			prop.Value = l.value(p.Value)
		}
		r.Properties = append(r.Properties, prop)
	}
	return r
}

func (l *lowerer) value(g *gValue) ast.Value {
	switch {
	case g.Scalar != nil:
		return l.scalar(g.Scalar)
	case g.Array != nil:
		a := &ast.Array{Span: span(l.src, g.Array.Tokens), Elements: make([]ast.Value, 0, len(g.Array.Elems))}
		for _, e := range g.Array.Elems {
			if e != nil {
				if v := l.scalar(e); v != nil {
					a.Elements = append(a.Elements, v)
				}
			}
		}
		return a
	case g.Map != nil:
		m := &ast.Map{Span: span(l.src, g.Map.Tokens)}
		if len(g.Map.Entries) > 0 {
			m.Entries = make([]ast.MapEntry, 0, len(g.Map.Entries))
		}
		for _, e := range g.Map.Entries {
			if e == nil {
				continue
			}
			me := ast.MapEntry{Key: key(&e.Key, tokSpan(l.src, &e.Key)), Span: span(l.src, e.Tokens)}
			if e.Value != nil {
				me.Value = l.scalar(e.Value)
			}
			m.Entries = append(m.Entries, me)
		}
		return m
	}
	return nil
}

func (l *lowerer) scalar(g *gScalar) ast.Value {
	switch {
	case g.UpperOnly.Type != 0:
		return &ast.RangeValue{Upper: number(nil, &g.UpperOnly, tokSpan(l.src, &g.UpperOnly)), Span: span(l.src, g.Tokens)}
	case g.Num.Type != 0:
		if g.Dots == "" && g.Upper.Value != "..." {
			return number(nil, &g.Num, tokSpan(l.src, &g.Num))
		}
		r := &ast.RangeValue{Lower: number(nil, &g.Num, tokSpan(l.src, &g.Num)), Span: span(l.src, g.Tokens)}
		if g.Dots == ".." && g.Upper.Type != 0 {
			r.Upper = number(nil, &g.Upper, tokSpan(l.src, &g.Upper))
		}
		return r
	case g.Other.Type != 0:
		return stringValue(nil, &g.Other, tokSpan(l.src, &g.Other))
	}
	return nil
}
