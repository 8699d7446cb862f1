package syntax

import (
	"fmt"
	"github.com/gramc-dev/gramc/syntax/reftree"
	"testing"
)

// TestParseFiles checks that concurrent parsing returns each file's own
// result in input order.
func TestParseFiles(t *testing.T) {
	var srcs []Source
	for i := 0; i < 20; i++ {
		src := fmt.Sprintf("(n%d)", i)
		if i%7 == 3 {
			src = fmt.Sprintf("(n%d", i) // unclosed
		}
		srcs = append(srcs, Source{Name: fmt.Sprintf("f%02d.gram", i), Src: []byte(src)})
	}
	results := ParseFiles(srcs)
	if len(results) != len(srcs) {
		t.Fatalf("%d results for %d sources", len(results), len(srcs))
	}
	for i, r := range results {
		if r.File == nil || r.File.Name != srcs[i].Name {
			t.Fatalf("result %d is for %v, want %s", i, r.File, srcs[i].Name)
		}
		if bad := i%7 == 3; bad != r.Diags.HasErrors() {
			t.Errorf("%s: errors=%v, want %v", srcs[i].Name, r.Diags.HasErrors(), bad)
		}
		if !r.Diags.HasErrors() {
			if got, want := reftree.Sexp(r.File), "(gram_pattern (node_pattern identifier: (symbol)))"; got != want {
				t.Errorf("%s: %s", srcs[i].Name, got)
			}
		}
	}
	if got := ParseFiles(nil); len(got) != 0 {
		t.Errorf("ParseFiles(nil) = %v", got)
	}
}

func TestParseStringAndParseFile(t *testing.T) {
	path := "a.gram"
	text := "// greeting\n(hello)-->(world)\n"
	fromString, ds1 := ParseString(path, text)
	fromBytes, ds2 := ParseFile(path, []byte(text))
	if len(ds1) != 0 || len(ds2) != 0 {
		t.Fatalf("unexpected diagnostics: %v %v", ds1, ds2)
	}
	if a, b := reftree.Sexp(fromString), reftree.Sexp(fromBytes); a != b {
		t.Fatalf("ParseString and ParseFile disagree:\n%s\n%s", a, b)
	}
	res := ParseFiles([]Source{{Name: "t.gram", Text: text}, {Name: "b.gram", Src: []byte("(x")}})
	if len(res[0].Diags) != 0 || !res[1].Diags.HasErrors() {
		t.Fatalf("ParseFiles: %v / %v", res[0].Diags, res[1].Diags)
	}
}
