package syntax

import (
	"fmt"
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
			if got, want := Sexp(r.File), "(gram_pattern (node_pattern identifier: (symbol)))"; got != want {
				t.Errorf("%s: %s", srcs[i].Name, got)
			}
		}
	}
	if got := ParseFiles(nil); len(got) != 0 {
		t.Errorf("ParseFiles(nil) = %v", got)
	}
}
