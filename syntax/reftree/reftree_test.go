package reftree_test

import (
	"encoding/json"
	"fmt"
	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/syntax"
	"github.com/gramc-dev/gramc/syntax/reftree"
	"strings"
	"testing"
)

// TestSexpComments checks where comments land in the tree: in the
// innermost node whose first and last tokens surround them, as
// tree-sitter places extras.
func TestSexpComments(t *testing.T) {
	tests := []struct{ src, want string }{
		{"( // c\n a )", "(gram_pattern (node_pattern (comment) identifier: (symbol)))"},
		{"(a // c\n )", "(gram_pattern (node_pattern identifier: (symbol) (comment)))"},
		{"(a:B // c\n :C)", "(gram_pattern (node_pattern identifier: (symbol) labels: (labels (symbol) (comment) (symbol))))"},
		{"({k: // c\n 1})", "(gram_pattern (node_pattern record: (record (record_property key: (symbol) (comment) value: (integer)))))"},
		{"[a | b, // c\n c]", "(gram_pattern (subject_pattern identifier: (symbol) elements: (subject_pattern_elements (pattern_reference identifier: (symbol)) (comment) (pattern_reference identifier: (symbol)))))"},
		{"[a | b // c\n ]", "(gram_pattern (subject_pattern identifier: (symbol) elements: (subject_pattern_elements (pattern_reference identifier: (symbol))) (comment)))"},
		{"(a)- // c\n ->(b)", "(gram_pattern (relationship_pattern left: (node_pattern identifier: (symbol)) kind: (right_arrow (comment)) right: (node_pattern identifier: (symbol))))"},
		{"(a) // c\n -->(b)-->(c)", "(gram_pattern (relationship_pattern left: (node_pattern identifier: (symbol)) (comment) kind: (right_arrow) right: (relationship_pattern left: (node_pattern identifier: (symbol)) kind: (right_arrow) right: (node_pattern identifier: (symbol)))))"},
		{"(a)-->(b) // c\n -->(c)", "(gram_pattern (relationship_pattern left: (node_pattern identifier: (symbol)) kind: (right_arrow) right: (relationship_pattern left: (node_pattern identifier: (symbol)) (comment) kind: (right_arrow) right: (node_pattern identifier: (symbol)))))"},
		{"@a(1) // c\n @b(2) ()", "(gram_pattern (annotated_pattern annotations: (annotations (property_annotation key: (symbol) value: (integer)) (comment) (property_annotation key: (symbol) value: (integer))) elements: (node_pattern)))"},
		{"@a( // c\n 1) ()", "(gram_pattern (annotated_pattern annotations: (annotations (property_annotation key: (symbol) (comment) value: (integer))) elements: (node_pattern)))"},
		{"(a: // c\n `x y`)", "(gram_pattern (node_pattern identifier: (symbol) labels: (labels (comment) (quoted_name content: (string_content)))))"},
	}
	for _, tt := range tests {
		checkSexp(t, tt.src, tt.want)
	}
}

// checkSexp parses src and compares its tree's S-expression with want.
func checkSexp(t *testing.T, src, want string) {
	t.Helper()
	f, diags := syntax.ParseFile("x.gram", []byte(src))
	if diags.HasErrors() {
		t.Errorf("%q: %v", src, diags.Err())
		return
	}
	if got := reftree.Sexp(f); got != want {
		t.Errorf("%q:\ngot  %s\nwant %s", src, got, want)
	}
}

// TestSexpStringContent checks when a string has a string_content child,
// following tree-sitter-gram's lexer (src/parser.c): the text token of a
// quoted string matches the empty string, so an empty quoted string, name
// or tagged string still has a (zero-width) content; a fenced string's text
// token needs at least one character, the line-break token that ends the
// fence's header takes every line break right after it, and white space
// alone before the closing fence is space before that token, not text.
func TestSexpStringContent(t *testing.T) {
	const (
		lit    = "(string_literal content: (string_content))"
		bare   = "(string_literal)"
		tagged = "(tagged_string tag: (symbol) content: (string_content))"
		tagBar = "(tagged_string tag: (symbol))"
	)
	tests := []struct{ src, want string }{
		{`({k: ""})`, lit},
		{`({k: ''})`, lit},
		{"({k: ``})", lit},
		{"({k: \"\n  \"})", lit},
		{"({k: t``})", tagged},
		{"({k: ```\n```})", bare},
		{"({k: ```\n\n\n```})", bare},
		{"({k: ```\n \n```})", bare},
		{"({k: ```\r\n\r\n```})", bare},
		{"({k: ```\n \t\r\n x```})", lit},
		{"({k: ```\n\n`x```})", lit},
		{"({k: ```\n\nx\n```})", lit},
		{"({k: ```md\n```})", tagBar},
		{"({k: ```md\n\n```})", tagBar},
		{"({k: ```md\n\nx```})", tagged},
	}
	for _, tt := range tests {
		checkSexp(t, tt.src, "(gram_pattern (node_pattern record: (record (record_property key: (symbol) value: "+tt.want+"))))")
	}
	names := []struct{ src, want string }{
		{"(``)", "(gram_pattern (node_pattern identifier: (quoted_name content: (string_content))))"},
		{"(:``)", "(gram_pattern (node_pattern labels: (labels (quoted_name content: (string_content)))))"},
		{`({"": 1})`, "(gram_pattern (node_pattern record: (record (record_property key: (double_quoted_name content: (string_content)) value: (integer)))))"},
	}
	for _, tt := range names {
		checkSexp(t, tt.src, tt.want)
	}
}

// TestJSONTree checks the JSON form of the tree: types, fields and
// 1-based positions.
func TestJSONTree(t *testing.T) {
	f, diags := syntax.ParseFile("x.gram", []byte("// hi\n(a:B)"))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	b, err := reftree.JSON(f)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		Type     string
		Children []struct {
			Type     string
			Field    string
			Start    struct{ Offset, Line, Column int }
			Children []struct {
				Type  string
				Field string
				Start struct{ Offset, Line, Column int }
				End   struct{ Offset, Line, Column int }
			}
		}
	}
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	if root.Type != "gram_pattern" || len(root.Children) != 2 || root.Children[0].Type != "comment" {
		t.Fatalf("unexpected tree:\n%s", b)
	}
	n := root.Children[1]
	if n.Type != "node_pattern" || n.Start.Line != 2 || n.Start.Column != 1 || n.Start.Offset != 6 {
		t.Errorf("node: %+v", n)
	}
	if id := n.Children[0]; id.Field != "identifier" || id.Type != "symbol" || id.Start.Column != 2 || id.End.Column != 3 {
		t.Errorf("identifier: %+v", id)
	}
}

// TestQuotedNamePositions checks the positions of quoted names read from
// the source: an escaped slash, and space or a comment between a label's
// colon and its name, used to be worked out from the decoded name.
func TestQuotedNamePositions(t *testing.T) {
	tests := []struct {
		src  string
		want []string // quoted_name and string_content spans
	}{
		{"(a:  `b\\/c`)", []string{"1:6-1:12", "1:7-1:11"}},
		{"(a: // c\n `bc`)", []string{"2:2-2:6", "2:3-2:5"}},
		{"(`x\\/y` {`k\\/`: 1})", []string{"1:2-1:8", "1:3-1:7", "1:10-1:15", "1:11-1:14"}},
	}
	for _, tt := range tests {
		f, diags := syntax.ParseFile("x.gram", []byte(tt.src))
		if diags.HasErrors() {
			t.Fatalf("%q: %v", tt.src, diags.Err())
		}
		got := treeSpans(f, func(n *reftree.TreeNode) bool { return n.Type == "quoted_name" || n.Type == "string_content" })
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%q: spans %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestTokenGapPositions checks the tag and content positions of strings
// whose parts are separated by whitespace.
func TestTokenGapPositions(t *testing.T) {
	tests := []struct {
		src  string
		want []string // tag and content spans as "line:col-line:col"
	}{
		{"({k: d \n `ab`})", []string{"1:6-1:7", "2:3-2:5"}},
		{"({k: ``` md \nx\n```})", []string{"1:10-1:12", "2:1-3:1"}},
		{"({k: d  `ab`})", []string{"1:6-1:7", "1:10-1:12"}},
		{"({k: d`ab\n  `})", []string{"1:6-1:7", "1:8-1:10"}},
	}
	for _, tt := range tests {
		f, diags := syntax.ParseFile("x.gram", []byte(tt.src))
		if diags.HasErrors() {
			t.Errorf("%q: %v", tt.src, diags.Err())
			continue
		}
		got := treeSpans(f, func(n *reftree.TreeNode) bool { return n.Field == "tag" || n.Type == "string_content" })
		if len(got) != len(tt.want) || got[0] != tt.want[0] || got[1] != tt.want[1] {
			t.Errorf("%q: spans %v, want %v", tt.src, got, tt.want)
		}
	}
}

// treeSpans returns the spans, as "line:col-line:col", of the nodes of
// f's tree that keep selects, in tree order.
func treeSpans(f *ast.File, keep func(*reftree.TreeNode) bool) []string {
	var spans []string
	var walk func(n *reftree.TreeNode)
	walk = func(n *reftree.TreeNode) {
		if keep(n) {
			spans = append(spans, posString(n.Start)+"-"+posString(n.End))
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(reftree.Tree(f))
	return spans
}

func posString(p ast.Pos) string {
	return fmt.Sprintf("%d:%d", p.Line, p.Column)
}
