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

// TestFixKindsDocumented: docs/diagnostics.md's "Fixes" section names
// exactly the codes whose fix is exact.
func TestFixKindsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n## Fixes\n")
	if !ok {
		t.Fatal("docs/diagnostics.md has no Fixes section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	_, exact, _ := strings.Cut(sec, "The codes whose fix is\n  exact:")
	exact, _, _ = strings.Cut(exact, "\n- ")
	var documented []string
	for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(exact, -1) {
		documented = append(documented, m[1])
	}
	var want []string
	for _, c := range ExactFixCodes() {
		want = append(want, string(c))
	}
	if strings.Join(documented, ",") != strings.Join(want, ",") {
		t.Errorf("docs list exact fixes %v, the registry %v", documented, want)
	}
}
