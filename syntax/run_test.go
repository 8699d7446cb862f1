package syntax

import (
	"fmt"
	"github.com/gramc-dev/gramc/syntax/reftree"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/gramc-dev/gramc/internal/gramgen"
)

// coarseTokens returns the types of the coarse tokens of src, EOF
// excluded.
func coarseTokens(t *testing.T, src string) []lexer.TokenType {
	t.Helper()
	sc := newCoarseScanner("x.gram", src)
	var types []lexer.TokenType
	for {
		tok, err := sc.Next()
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if tok.Type == lexer.EOF {
			return types
		}
		types = append(types, tok.Type)
	}
}

// TestRunTokens checks where the coarse scanner makes runs: over complete
// plain patterns, never into an annotation's value or pattern, and ending
// before a pattern that is not well-formed.
func TestRunTokens(t *testing.T) {
	doc := string(gramgen.Document(200))
	if got := coarseTokens(t, doc); len(got) != 1 || got[0] != tRun {
		t.Errorf("a generated document of 200 tools: tokens %v, want one run", got)
	}
	tests := []struct {
		src  string
		want []lexer.TokenType
	}{
		{"{h: 1} (a)-->(b) [c]", []lexer.TokenType{tBraceGroup, tRun}},
		{"(a) @k(1) (b) (c)", []lexer.TokenType{tRun, tPunct, tSymbol, tParenGroup, tParenGroup, tRun}},
		{"@@p:L [a] [b]", []lexer.TokenType{tPunct, tSymbol, tPunct, tSymbol, tBracketGroup, tRun}},
		{"(a) (b)-=>(c) (d)", []lexer.TokenType{tRun, tParenGroup, tPunct, tPunct, tParenGroup, tRun}},
		{"(a) (b)-(c)", []lexer.TokenType{tRun, tParenGroup, tPunct, tParenGroup}},
		{"(a)-->", []lexer.TokenType{tParenGroup, tPunct, tPunct}},
		{"[a]-->(b)", []lexer.TokenType{tRun, tPunct, tPunct, tParenGroup}},
		{"(a), (b)", []lexer.TokenType{tRun, tPunct, tParenGroup}},
	}
	for _, tt := range tests {
		got := coarseTokens(t, tt.src)
		if len(got) != len(tt.want) {
			t.Errorf("%q: tokens %v, want %v", tt.src, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: tokens %v, want %v", tt.src, got, tt.want)
				break
			}
		}
	}
}

// TestRunTrees checks that the patterns of runs, around annotations and
// broken patterns, come out in order with their comments, as the reference
// grammar (which knows no runs) builds them.
func TestRunTrees(t *testing.T) {
	src := "{h: 1}\n(a) // one\n(b)-[r:R]->(c)<--(d) // two\n[e | f]\n@k(1) (g) (h)\n@@p:L [i]\n[j] // three\n"
	got, diags := ParseFile("x.gram", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	want, ok := parseReference("x.gram", []byte(src))
	if !ok {
		t.Fatal("the reference grammar rejects the input")
	}
	if reftree.Sexp(got) != reftree.Sexp(want) {
		t.Errorf("trees differ:\n got %s\nwant %s", reftree.Sexp(got), reftree.Sexp(want))
	}
	if len(got.Patterns) != 7 || len(got.Comments) != 3 {
		t.Errorf("%d patterns and %d comments, want 7 and 3", len(got.Patterns), len(got.Comments))
	}
	for i, want := range []string{"*ast.NodePattern", "*ast.RelationshipPattern", "*ast.SubjectPattern", "*ast.AnnotatedPattern", "*ast.NodePattern", "*ast.AnnotatedPattern", "*ast.SubjectPattern"} {
		if i < len(got.Patterns) {
			if g := fmt.Sprintf("%T", got.Patterns[i]); g != want {
				t.Errorf("pattern %d is %s, want %s", i+1, g, want)
			}
		}
	}
}

// TestRunPartialFile checks that the patterns of a run before a lexical
// error are kept, and (recovery) the pattern after it too.
func TestRunPartialFile(t *testing.T) {
	f, diags := ParseFile("x.gram", []byte("(a)\n(b)-->(c)\n[d]\n(e {s: \"unterminated})\n(f)"))
	if !diags.HasErrors() {
		t.Fatal("no error")
	}
	if len(f.Patterns) != 4 {
		t.Errorf("%d patterns around the error, want 4", len(f.Patterns))
	}
}
