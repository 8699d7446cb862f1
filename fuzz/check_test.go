package fuzz

import (
	"testing"
	"unicode/utf8"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
)

// checkSource parses and checks src as the one file of a package.
func checkSource(name string, src []byte) (*check.Package, diag.Diagnostics) {
	f, ds := syntax.ParseFile(name, src)
	return check.CheckSources("", []check.SourceFile{{AST: f, Diags: ds}})
}

// FuzzCheck: the checker never panics or hangs on any input, and every
// diagnostic's range lies inside the file it names.
func FuzzCheck(f *testing.F) {
	addSeeds(f, seedFiles(f, "../testdata/check/*.gram", "../testdata/examples/*.gram", "../testdata/examples/seed/*.gram", "../examples/*/*.gram"))
	f.Add([]byte(`[t:Tool {description: "x"} | (a::Integer {default: 0x1F, range: 017..99})==>(::Array {elementType: R})]
[R:Type | (r::R {optional: true}), (n::Number {default: 1e3})]`))
	f.Add([]byte("[a:Agent {model: \"OpenAI/x\", instruction: ```\nhi\n```} | t, [t:Tool | ()==>(::String)]]"))
	f.Fuzz(func(t *testing.T, src []byte) {
		const name = "fuzz.gram"
		pkg, ds := checkSource(name, src)
		if pkg == nil {
			t.Fatal("nil package")
		}
		file := ast.Range{File: name, Start: ast.Pos{Offset: 0, Line: 1, Column: 1}, End: endOf(src)}
		for _, d := range ds {
			if !inside(file, d.Range) {
				t.Fatalf("diagnostic range %v..%v outside the file (%d bytes): %s", d.Range.Start, d.Range.End, len(src), d.Error())
			}
			for _, r := range d.Related {
				if !inside(file, r.Range) {
					t.Fatalf("related range %v..%v outside the file: %s", r.Range.Start, r.Range.End, d.Error())
				}
			}
		}
	})
}

// inside reports whether r lies within file: same name, valid, ordered
// positions, offsets within the text.
func inside(file, r ast.Range) bool {
	return r.File == file.File && r.Start.IsValid() && r.End.IsValid() &&
		r.Start.Offset >= 0 && r.Start.Offset <= r.End.Offset && r.End.Offset <= file.End.Offset &&
		r.Start.Line <= r.End.Line && r.End.Line <= file.End.Line
}

func endOf(src []byte) ast.Pos {
	p := ast.Pos{Offset: int32(len(src)), Line: 1, Column: 1}
	for len(src) > 0 {
		r, n := utf8.DecodeRune(src)
		src = src[n:]
		if r == '\n' {
			p.Line++
			p.Column = 1
		} else {
			p.Column++
		}
	}
	return p
}
