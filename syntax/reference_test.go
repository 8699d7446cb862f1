package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/google/go-cmp/cmp"

	"github.com/gramc-dev/gramc/ast"
)

// parseReference parses src with the declarative participle grammar of the
// whole notation (reference_grammar_test.go) over fine tokens.
func parseReference(filename string, src []byte) (*ast.File, bool) {
	text := string(src)
	f := &ast.File{Name: filename}
	sc := newScanner(filename, text)
	peek, err := lexer.Upgrade(sc)
	var g *gFile
	if err == nil {
		g, err = refGrammar.ParseFromLexer(peek)
	}
	source := ast.NewSource(text)
	l := &lowerer{filename: filename, src: source}
	l.file(g, f)
	f.Comments = comments(source, sc.comments)
	f.Span = source.Span(0, len(text))
	return f, err == nil && len(l.diags) == 0
}

// samePositions compares spans by the positions they denote (two parses
// of one text have two Sources).
var samePositions = cmp.Comparer(func(a, b ast.Span) bool { return a.Pos() == b.Pos() && a.End() == b.End() })

// trickyInputs exercise lexing and grammar corners beyond the corpus.
var trickyInputs = []string{
	"(a-b)-->(c.d@e)",
	"(a)--(b)<--(c)<-->(d)==(e)<==>(f)~~(g)<~~>(h)",
	"(a)-[]->(b)<=[r:T {w: 1}]=(c)~[:`x y`]~>(d)",
	"(a)- ->(b)",
	"({n: 10kg, h: 0x1F, o: 017, d: 2.5, m: -3, r1: 1..5, r2: 1..., r3: ...5, r4: 1.5..2.5cm})",
	"({b: true, c: false, d: trueish, s: sym-bol.x})",
	"({s: 'a\\'b', d: \"c\\\"d\\n\", b: `e\\`f`, e: \"\", t: url`http://x`, f: ```\nfenced\n```, g: ```md\n# t\n```})",
	"({a: [1, 2, 'x', sym, 1..2], m: {k: 1, `q k`: \"v\", \"dq\": x}})",
	"{h: 1}\n@@p:L @a(1) @b([1, 2]) [p:L {k: v} | a, (b)-->(c), [d | e], `f`, 42]",
	"[| a, b]",
	"[a:B::C:`D`]",
	"(1:A)\n(`q`)\n(-5)",
	"( // c\n a // d\n :B // e\n {k: // f\n 1} // g\n ) // h\n",
	"[a // c\n | b // d\n , c]",
	"@x(1) // c\n ()",
	"(a)-[ // c\n r]->(b)",
	"{}",
	"",
	"// only a comment",
	"(a {k: 1..})",
	"(a {k: [{b: 1}]})",
	"(a {k: []})",
	"(a)-[r]=>(b)",
	"(0x1F)",
	"(a b)",
	"(a)-->(b) (c)<-[r]-(d)\n[e]\n@x(1) (f) (g)-->(h)",
	"(a) // c\n(b)\n// d\n[c | d] @@i:J (k) (l)",
	"[a | ]",
	"[a, b]",
	"(a {k: {m: {n: 1}}})",
	"{k: 1} {k: 2}",
	"(a)-->",
	"(a)-->(b), (c)",
	"@@ (a)",
	"@@x",
	"(a {x:: 1})",
	"(a {x: {y:: 1}})",
	"({t: date `x`, u: d\n`y`, f: ``` md \r\nz\r\n```, g: ```\r\n```})",
	"({b: true`x`})",
	"({c: x // c\n`y`})",
	"({d: ```md // c\nx```})",
	"({e: \"abc\n  \", f: 'x\n', g: t`y\n\n`, `h\n`: 1})\n(`i\n`:`j\n`)",
	"({e: \"a\nb\"})",
	"({a: \"\", b: '', c: ``, d: t``, e: ```\n\n```, f: ```md\n \n```, g: ```\n\n\nx```})\n(``:``)",
	"({a: \"// x\"})",
	"({a: ```\n  // x```})",
	"({a: ```\n// x\n```, b: \"// y\n\"})",
}

// TestReferenceGrammarAgrees parses every corpus input, the examples and
// tricky inputs with both ParseFile and the declarative reference grammar,
// and requires the same verdict and the same tree, positions included.
func TestReferenceGrammarAgrees(t *testing.T) {
	var inputs []string
	for _, path := range conformanceFiles {
		for _, c := range loadCases(t, path) {
			inputs = append(inputs, c.Input)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "examples", "*", "*.gram"))
	more, _ := filepath.Glob(filepath.Join("..", "testdata", "examples", "*.gram"))
	for _, name := range append(files, more...) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(b))
	}
	inputs = append(inputs, trickyInputs...)
	for _, in := range inputs {
		got, diags := ParseFile("x.gram", []byte(in))
		want, ok := parseReference("x.gram", []byte(in))
		if ok != !diags.HasErrors() {
			t.Errorf("input %q: ParseFile ok=%v (%v), reference grammar ok=%v", in, !diags.HasErrors(), diags.Err(), ok)
			continue
		}
		if !ok {
			continue
		}
		if diff := cmp.Diff(want, got, samePositions); diff != "" {
			t.Errorf("input %q: tree differs from the reference grammar's (-ref +got):\n%s", in, diff)
		}
	}
}

// FuzzReferenceAgrees checks on random input that ParseFile and the
// declarative reference grammar accept the same documents and build the
// same trees.
func FuzzReferenceAgrees(f *testing.F) {
	for _, in := range trickyInputs {
		f.Add([]byte(in))
	}
	for _, path := range conformanceFiles {
		for _, c := range loadCases(f, path) {
			f.Add([]byte(c.Input))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if bytes.Count(src, []byte("(")) > 200 || bytes.Count(src, []byte("[")) > 200 {
			return // the reference grammar recurses per path step; keep it shallow
		}
		got, diags := ParseFile("x.gram", src)
		want, ok := parseReference("x.gram", src)
		if ok != !diags.HasErrors() {
			t.Fatalf("input %q: ParseFile ok=%v (%v), reference grammar ok=%v", src, !diags.HasErrors(), diags.Err(), ok)
		}
		if ok {
			if diff := cmp.Diff(want, got, samePositions); diff != "" {
				t.Fatalf("input %q: tree differs (-ref +got):\n%s", src, diff)
			}
		}
	})
}
