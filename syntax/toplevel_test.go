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

// TestCoarseTokens: the coarse scanner knows no grammar: it yields each
// balanced group as one token and everything else as the fine scanner
// does, whatever pattern the tokens make.
func TestCoarseTokens(t *testing.T) {
	doc := string(gramgen.Document(200))
	got := coarseTokens(t, doc)
	for _, typ := range got {
		if typ != tBracketGroup {
			t.Fatalf("a generated document of 200 tools: tokens %v, want its subject patterns", got)
		}
	}
	if len(got) < 200 {
		t.Errorf("a generated document of 200 tools: %d tokens", len(got))
	}
	tests := []struct {
		src  string
		want []lexer.TokenType
	}{
		{"{h: 1} (a)-->(b) [c]", []lexer.TokenType{tBraceGroup, tParenGroup, tPunct, tPunct, tParenGroup, tBracketGroup}},
		{"(a) @k(1) (b) (c)", []lexer.TokenType{tParenGroup, tPunct, tSymbol, tParenGroup, tParenGroup, tParenGroup}},
		{"@@p:L [a] [b]", []lexer.TokenType{tPunct, tSymbol, tPunct, tSymbol, tBracketGroup, tBracketGroup}},
		{"(a)-[r]->(b)", []lexer.TokenType{tParenGroup, tPunct, tBracketGroup, tPunct, tParenGroup}},
		{"(a), (b)", []lexer.TokenType{tParenGroup, tPunct, tParenGroup}},
	}
	for _, tt := range tests {
		got := coarseTokens(t, tt.src)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: tokens %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestTopLevelTrees checks that top-level patterns, around annotations
// and broken patterns, come out in order with their comments, as the
// reference grammar builds them.
func TestTopLevelTrees(t *testing.T) {
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

// TestPatternsAroundLexicalError checks that the patterns before a
// lexical error are kept, and (recovery) the pattern after it too.
func TestPatternsAroundLexicalError(t *testing.T) {
	f, diags := ParseFile("x.gram", []byte("(a)\n(b)-->(c)\n[d]\n(e {s: \"unterminated})\n(f)"))
	if !diags.HasErrors() {
		t.Fatal("no error")
	}
	if len(f.Patterns) != 4 {
		t.Errorf("%d patterns around the error, want 4", len(f.Patterns))
	}
}
