package syntax

import (
	"encoding/json"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax/reftree"
	"os"
	"path/filepath"
	"testing"
)

// conformanceCase is one case of a conformance corpus: the reference
// parser's verdict and, for valid inputs, its S-expression tree.
type conformanceCase struct {
	Suite string `json:"suite"`
	Name  string `json:"name"`
	Input string `json:"input"`
	Valid bool   `json:"valid"`
	Tree  string `json:"tree"`
	// Note records where a case came from (file and commit of the
	// reference corpus) and any translation from older vocabulary.
	Note string `json:"note,omitempty"`
}

// conformanceFiles are the reference parser's corpus and our extra cases
// taken from the reference corpus files.
var conformanceFiles = []string{
	filepath.Join("..", "testdata", "conformance", "gram-corpus.json"),
	filepath.Join("testdata", "conformance-extra.json"),
}

func loadCases(t testing.TB, path string) []conformanceCase {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []conformanceCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cases
}

// TestConformance runs every case of the reference parser's corpus
// (testdata/conformance/gram-corpus.json) and our extra cases taken from
// the reference corpus files (syntax/testdata/conformance-extra.json).
func TestConformance(t *testing.T) {
	for _, path := range conformanceFiles {
		cases := loadCases(t, path)
		if len(cases) == 0 && filepath.Base(path) == "gram-corpus.json" {
			t.Fatalf("%s: no cases", path)
		}
		for _, c := range cases {
			t.Run(c.Suite+"/"+c.Name, func(t *testing.T) {
				checkCase(t, c)
			})
		}
	}
}

func checkCase(t *testing.T, c conformanceCase) {
	t.Helper()
	f, diags := ParseFile("case.gram", []byte(c.Input))
	if f == nil {
		t.Fatal("ParseFile returned a nil file")
	}
	if c.Valid {
		if len(diags) > 0 {
			t.Fatalf("input:\n%s\nunexpected diagnostics: %v", c.Input, diags.Err())
		}
		if got := reftree.Sexp(f); got != c.Tree {
			t.Fatalf("input:\n%s\ngot  %s\nwant %s", c.Input, got, c.Tree)
		}
		return
	}
	if !diags.HasErrors() {
		t.Fatalf("input:\n%s\naccepted invalid input; tree %s", c.Input, reftree.Sexp(f))
	}
	for _, d := range diags {
		if info, _ := diag.Lookup(d.Code); info.Stage != diag.StageSyntax {
			t.Errorf("code %q, want a syntax code", d.Code)
		}
		if d.Range.File != "case.gram" || !d.Range.Start.IsValid() || d.Range.Start.Offset < 0 || int(d.Range.Start.Offset) > len(c.Input) {
			t.Errorf("diagnostic %v has a position outside the input", d)
		}
	}
}
