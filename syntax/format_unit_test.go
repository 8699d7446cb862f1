package syntax

import (
	"testing"

	"github.com/gramc-dev/gramc/ast"
)

// Hand-built trees: the printer's layout rules, independent of the parser.

func tIdent(name string) *ast.Identifier { return &ast.Identifier{Name: name} }

func tLabels(names ...string) []ast.Label {
	var ls []ast.Label
	for _, n := range names {
		ls = append(ls, ast.Label{Name: n})
	}
	return ls
}

func tRecord(kv ...any) *ast.Record {
	r := &ast.Record{}
	for i := 0; i < len(kv); i += 2 {
		r.Properties = append(r.Properties, ast.Property{Key: ast.Key{Name: kv[i].(string)}, Value: kv[i+1].(ast.Value)})
	}
	return r
}

func tStr(s string) *ast.String {
	return &ast.String{Kind: ast.DoubleQuoted, Value: s}
}

// tNum is a number; its text is its span's, so it gets a Source of its own.
func tNum(raw string) *ast.Number {
	return &ast.Number{Span: ast.NewSource(raw).Span(0, len(raw))}
}

func tNode(id string, labels []string, rec *ast.Record) *ast.NodePattern {
	n := &ast.NodePattern{}
	if id != "" {
		n.Identifier = tIdent(id)
	}
	if len(labels) > 0 {
		n.Labels = tLabels(labels...)
	}
	n.Record = rec
	return n
}

func tPath(arrow *ast.Arrow, nodes ...*ast.NodePattern) *ast.RelationshipPattern {
	var right ast.Pattern = nodes[len(nodes)-1]
	for i := len(nodes) - 2; i >= 0; i-- {
		a := *arrow
		right = &ast.RelationshipPattern{Left: nodes[i], Arrow: &a, Right: right}
	}
	return right.(*ast.RelationshipPattern)
}

func TestFormatHandBuilt(t *testing.T) {
	right := &ast.Arrow{Kind: ast.RightArrow, Style: ast.DoubleArrow}
	tool := &ast.SubjectPattern{
		Subject: ast.Subject{Identifier: tIdent("getWeather"), Labels: tLabels("Tool"), Record: tRecord("description", tStr("Current weather"))},
		Elements: []ast.Pattern{tPath(right,
			tNode("city", []string{"String"}, tRecord("description", tStr("City name"))),
			tNode("unit", []string{"Unit"}, nil),
			tNode("", []string{"WeatherReport"}, nil))},
	}
	small := &ast.SubjectPattern{
		Subject:  ast.Subject{Identifier: tIdent("hi"), Labels: tLabels("Tool"), Record: tRecord("description", tStr("x"))},
		Elements: []ast.Pattern{tPath(right, tNode("", nil, nil), tNode("", []string{"String"}, nil))},
	}
	team := &ast.SubjectPattern{
		Subject: ast.Subject{Identifier: tIdent("devrel"), Labels: tLabels("Team")},
		Elements: []ast.Pattern{
			&ast.PatternReference{Identifier: tIdent("abk")},
			&ast.PatternReference{Identifier: tIdent("adam")},
		},
	}
	one := &ast.SubjectPattern{
		Subject:  ast.Subject{Identifier: tIdent("g")},
		Elements: []ast.Pattern{&ast.PatternReference{Identifier: tIdent("x")}},
	}
	rel := &ast.RelationshipPattern{
		Left: tNode("a", []string{"A", "B"}, nil),
		Arrow: &ast.Arrow{Kind: ast.BidirectionalArrow, Style: ast.SquiggleArrow,
			Subject: &ast.Subject{Identifier: tIdent("r"), Labels: tLabels("KNOWS"), Record: tRecord("w", tNum("1"))}},
		Right: &ast.RelationshipPattern{
			Left:  tNode("b", nil, &ast.Record{}),
			Arrow: &ast.Arrow{Kind: ast.LeftArrow, Style: ast.SingleArrow},
			Right: tNode("`c d", nil, nil),
		},
	}
	ann := &ast.AnnotatedPattern{
		Annotations: []ast.Annotation{
			&ast.PropertyAnnotation{Key: &ast.Symbol{Name: "desc"}, Value: &ast.Array{Elements: []ast.Value{tNum("1"), &ast.Boolean{Value: true}}}},
			&ast.IdentifiedAnnotation{Identifier: tIdent("p"), Labels: tLabels("L")},
		},
		Pattern: tNode("a", nil, tRecord("r", &ast.RangeValue{Lower: tNum("1")}, "m", &ast.Map{Entries: []ast.MapEntry{{Key: ast.Key{Kind: ast.DoubleQuotedKey, Name: "k k"}, Value: &ast.Symbol{Name: "v"}}}})),
	}
	f := &ast.File{
		Header:   tRecord("package", tStr("weather")),
		Patterns: []ast.Pattern{tool, small, team, one, rel, ann},
	}
	want := `{package: "weather"}

[getWeather:Tool {description: "Current weather"} |
  (city::String {description: "City name"})==>
  (unit::Unit)==>
  (::WeatherReport)
]

[hi:Tool {description: "x"} |
  ()==>(::String)
]

[devrel:Team |
  abk,
  adam
]

[g | x]

(a:A:B)<~[r:KNOWS {w: 1}]~>(b {})<--(` + "`\\`c d`" + `)

@desc([1, true])
@@p:L (a {r: 1..., m: {"k k": v}})
`
	if got := string(Format(f)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestFormatLongRecordBreaks(t *testing.T) {
	long := tRecord(
		"description", tStr("A description that is long enough to push this record past the line width"),
		"minLength", tNum("1"))
	f := &ast.File{Patterns: []ast.Pattern{tNode("p", []string{"String"}, long)}}
	want := `(p::String {
  description: "A description that is long enough to push this record past the line width",
  minLength: 1
})
`
	if got := string(Format(f)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestFormatEmpty(t *testing.T) {
	if got := Format(&ast.File{}); len(got) != 0 {
		t.Errorf("empty file formats as %q", got)
	}
}

// TestFormatIncompleteTree checks that a hand-built tree with missing
// parts prints what it has instead of panicking.
func TestFormatIncompleteTree(t *testing.T) {
	f := &ast.File{Patterns: []ast.Pattern{
		&ast.RelationshipPattern{Left: tNode("a", nil, nil)},
		&ast.PatternReference{},
		&ast.NodePattern{Subject: ast.Subject{Record: &ast.Record{Properties: []ast.Property{{Key: ast.Key{Name: "k"}}}}}},
		&ast.AnnotatedPattern{Annotations: []ast.Annotation{&ast.PropertyAnnotation{}}, Pattern: tNode("b", nil, nil)},
		nil,
	}}
	got := string(Format(f))
	want := "(a)\n\n({k: })\n\n@()\n(b)\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
