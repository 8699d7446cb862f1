package diag

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestRegistryAndDocsAgree: every registered code is documented on its
// page (docs/diagnostics.md has a section per code, with an example that
// check/doc_test.go runs), every code documented is registered, and codes
// are unique.
func TestRegistryAndDocsAgree(t *testing.T) {
	pages := map[string]string{}
	seen := map[Code]bool{}
	for _, c := range Codes() {
		if seen[c.Code] {
			t.Errorf("code %s registered twice", c.Code)
		}
		seen[c.Code] = true
		if _, ok := pages[c.Doc]; !ok {
			data, err := os.ReadFile("../" + c.Doc)
			if err != nil {
				t.Fatalf("%s: %v", c.Code, err)
			}
			pages[c.Doc] = string(data)
		}
		if !strings.Contains(pages[c.Doc], "`"+string(c.Code)+"`") {
			t.Errorf("%s is not documented in %s", c.Code, c.Doc)
		}
		if info, ok := Lookup(c.Code); !ok || info != c {
			t.Errorf("Lookup(%s) = %+v, %v", c.Code, info, ok)
		}
		if page, _, _ := strings.Cut(c.Anchor(), "#"); "docs/"+page != c.Doc {
			t.Errorf("%s: Anchor %s", c.Code, c.Anchor())
		}
	}
	diagnostics, err := os.ReadFile("../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?m)^### `([a-z0-9-]+)`").FindAllStringSubmatch(string(diagnostics), -1) {
		if !seen[Code(m[1])] {
			t.Errorf("docs/diagnostics.md documents %s, which is not registered", m[1])
		}
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `(target-[a-z-]+)` \\|").FindAllStringSubmatch(pages["docs/schema.md"], -1) {
		if !seen[Code(m[1])] {
			t.Errorf("docs/schema.md documents %s, which is not registered", m[1])
		}
	}
	if len(CodesOf(StageSyntax)) != 5 || len(CodesOf(StageTarget)) != 10 {
		t.Errorf("stages: %d syntax, %d target codes", len(CodesOf(StageSyntax)), len(CodesOf(StageTarget)))
	}
}
