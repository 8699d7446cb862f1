package fuzz

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/syntax"
)

// formatSameTree compares parsed files up to positions; the formatter
// normalises label separators, which mean the same. Parallel to
// syntax/format_test.go's sameTree and signatureFirst: the same rules of
// what formatting may change, written twice because no package both
// tests may import can hold ast-typed cmp options (internal/ sits below
// ast in layers_test.go's rules, and a new test-helper package needs a
// rule there).
var formatSameTree = cmp.Options{
	cmpopts.IgnoreTypes(ast.Span{}),
	cmpopts.IgnoreFields(ast.Label{}, "DoubleColon"),
	// The formatter drops trailing white space in comments.
	cmp.Comparer(func(a, b *ast.Comment) bool {
		return strings.TrimRight(a.Text, " \t\r") == strings.TrimRight(b.Text, " \t\r")
	}),
	// The formatter prints an agent's signature first.
	cmp.Transformer("signatureFirst", signatureFirst),
}

// formatSeeds returns the conformance corpus inputs (valid and invalid),
// the example files and the formatter's golden inputs.
func formatSeeds(f *testing.F) [][]byte {
	seeds := corpusInputs(f, "../testdata/conformance/gram-corpus.json")
	seeds = append(seeds, seedFiles(f, "../testdata/examples/*.gram", "../testdata/examples/*/*.gram")...)
	archives, _ := filepath.Glob("../syntax/testdata/format/*.txtar")
	for _, name := range archives {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if file.Name == "in.gram" {
				seeds = append(seeds, file.Data)
			}
		}
	}
	if len(seeds) < 100 {
		f.Fatalf("only %d seeds", len(seeds))
	}
	return seeds
}

// FuzzFormat checks the formatter on any input that parses: the output
// parses, has the same tree (comments included) up to positions, and
// formatting it again changes nothing. Nothing may panic.
func FuzzFormat(f *testing.F) {
	for _, s := range formatSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, diags := syntax.ParseFile("fuzz.gram", src)
		if diags.HasErrors() {
			if out, d := syntax.FormatSource("fuzz.gram", src); out != nil || !d.HasErrors() {
				t.Fatalf("FormatSource formatted a file with syntax errors")
			}
			return
		}
		out := syntax.Format(file)
		again, diags := syntax.ParseFile("fuzz.gram", out)
		if diags.HasErrors() {
			t.Fatalf("formatted text does not parse: %v\ninput:\n%s\nformatted:\n%s", diags.Err(), src, out)
		}
		if diff := cmp.Diff(file, again, formatSameTree); diff != "" {
			t.Fatalf("formatting changed the tree (-input +formatted):\n%s\ninput:\n%s\nformatted:\n%s", diff, src, out)
		}
		if twice := syntax.Format(again); !bytes.Equal(twice, out) {
			t.Fatalf("formatting is not idempotent\ninput:\n%s\nonce:\n%s\ntwice:\n%s", src, out, twice)
		}
		if fs, _ := syntax.FormatSource("fuzz.gram", src); !bytes.Equal(fs, out) {
			t.Fatalf("FormatSource and Format disagree")
		}
	})
}

// signatureFirst is sp with an agent's first path or node element moved
// first, as the formatter prints it (unless comments hold the order, in
// which case neither tree moves it): both trees compare in this order.
func signatureFirst(sp *ast.SubjectPattern) *ast.SubjectPattern {
	if sp == nil {
		return nil
	}
	agent := false
	for _, l := range sp.Labels {
		agent = agent || l.Name == "Agent"
	}
	if !agent {
		return sp
	}
	for i, e := range sp.Elements {
		switch e.(type) {
		case *ast.RelationshipPattern, *ast.NodePattern:
			out := *sp
			out.Elements = append(append([]ast.Pattern{e}, sp.Elements[:i]...), sp.Elements[i+1:]...)
			return &out
		}
	}
	return sp
}
