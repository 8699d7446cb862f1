package fuzz

import (
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/syntax"
	"github.com/gramc-dev/gramc/syntax/reftree"
)

// FuzzParse checks that the parser never panics or hangs, that every
// diagnostic points inside the input, and that for valid input every node's
// Pos/End, and every node of the concrete tree (reftree.Tree), lie inside the
// input in order.
func FuzzParse(f *testing.F) {
	addSeeds(f, corpusInputs(f, "../testdata/conformance/gram-corpus.json", "../syntax/testdata/conformance-extra.json"))
	f.Add([]byte(strings.Repeat("[", 5000)))
	f.Add([]byte("(a {x: [{b: 1}]})"))
	f.Add([]byte("```md\nunterminated"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, diags := syntax.ParseFile("fuzz.gram", src)
		if file == nil {
			t.Fatal("nil file")
		}
		for _, d := range diags {
			if d.Range.File != "fuzz.gram" {
				t.Errorf("diagnostic %q names file %q", d.Summary, d.Range.File)
			}
			s, e := d.Range.Start, d.Range.End
			if s.Offset < 0 || int(s.Offset) > len(src) || e.Offset < s.Offset || int(e.Offset) > len(src) || s.Line < 1 || s.Column < 1 {
				t.Errorf("diagnostic %q at %+v..%+v outside the input (%d bytes)", d.Summary, s, e, len(src))
			}
		}
		if diags.HasErrors() {
			return
		}
		ast.Inspect(file, func(n ast.Node) bool {
			p, e := n.Pos(), n.End()
			if p.Offset < 0 || int(e.Offset) > len(src) || p.Offset > e.Offset || p.Line < 1 || p.Column < 1 || e.Line < p.Line {
				t.Errorf("%T at %+v..%+v outside the input or out of order (%d bytes)", n, p, e, len(src))
			}
			return true
		})
		_ = reftree.Sexp(file)
		// The concrete tree's nodes (string contents, tags and quoted
		// names included) lie inside the input, in order, within their
		// parents.
		var walk func(n *reftree.TreeNode, parent *reftree.TreeNode)
		walk = func(n, parent *reftree.TreeNode) {
			p, e := n.Start, n.End
			if p.Offset < 0 || int(e.Offset) > len(src) || p.Offset > e.Offset || p.Line < 1 || p.Column < 1 || e.Line < p.Line {
				t.Errorf("tree node %s at %+v..%+v outside the input or out of order (%d bytes)", n.Type, p, e, len(src))
			}
			if parent != nil && (p.Offset < parent.Start.Offset || e.Offset > parent.End.Offset) {
				t.Errorf("tree node %s at %+v..%+v outside its parent %s at %+v..%+v", n.Type, p, e, parent.Type, parent.Start, parent.End)
			}
			for _, c := range n.Children {
				walk(c, n)
			}
		}
		walk(reftree.Tree(file), nil)
	})
}
