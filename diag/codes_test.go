package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/docs"
)

// TestRegistryAndDocsAgree: every registered code is documented on its
// page (docs/diagnostics.md has a section per code, with an example that
// check/doc_test.go runs), every code documented is registered, and codes
// are unique.
func TestRegistryAndDocsAgree(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range Codes() {
		if seen[c.Code] {
			t.Errorf("code %s registered twice", c.Code)
		}
		seen[c.Code] = true
		page, err := docs.Pages.ReadFile(strings.TrimPrefix(c.Doc, "docs/"))
		if err != nil {
			t.Fatalf("%s: %v", c.Code, err)
		}
		if !strings.Contains(string(page), "`"+string(c.Code)+"`") {
			t.Errorf("%s is not documented in %s", c.Code, c.Doc)
		}
		if info, ok := Lookup(c.Code); !ok || info != c {
			t.Errorf("Lookup(%s) = %+v, %v", c.Code, info, ok)
		}
		if page, _, _ := strings.Cut(c.Anchor(), "#"); "docs/"+page != c.Doc {
			t.Errorf("%s: Anchor %s", c.Code, c.Anchor())
		}
	}
	diagnostics := docs.Page("diagnostics.md")
	for _, m := range regexp.MustCompile("(?m)^### `([a-z0-9-]+)`").FindAllStringSubmatch(diagnostics, -1) {
		if !seen[Code(m[1])] {
			t.Errorf("docs/diagnostics.md documents %s, which is not registered", m[1])
		}
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `(target-[a-z-]+)` \\|").FindAllStringSubmatch(docs.Page("schema.md"), -1) {
		if !seen[Code(m[1])] {
			t.Errorf("docs/schema.md documents %s, which is not registered", m[1])
		}
	}
}

// stagePackages are the packages that report each stage's codes.
var stagePackages = map[Stage][]string{
	StageSyntax: {"syntax"},
	StageCheck:  {"check"},
	StageTarget: {"codegen/schema"},
	StageGen:    {"codegen/golang", "codegen/model", "codegen/typescript"},
	StageLoad:   {"load", "config"},
	StageDiff:   {"compat"},
	StageImport: {"importer"},
}

// TestStagesAreWhereCodesAreReported derives each stage's codes from the
// source instead of pinning their counts: a stage's codes are exactly the
// registered codes its packages name (diag.CodeX in their non-test Go
// files), so a code registered under the wrong stage, or reported by a
// package of another stage, fails.
func TestStagesAreWhereCodesAreReported(t *testing.T) {
	consts := codeConstants(t)
	stages := map[Stage]bool{}
	for _, c := range Codes() {
		stages[c.Stage] = true
	}
	for stage := range stages {
		dirs, ok := stagePackages[stage]
		if !ok {
			t.Errorf("stage %s has no packages in stagePackages", stage)
			continue
		}
		named := map[Code]bool{}
		for _, dir := range dirs {
			for _, name := range namedCodes(t, filepath.Join("..", dir)) {
				code, ok := consts[name]
				if !ok {
					continue // CodeInfo and the like
				}
				named[code] = true
				if info, _ := Lookup(code); info.Stage != stage {
					t.Errorf("%s names %s, a code of stage %s, not %s", dir, code, info.Stage, stage)
				}
			}
		}
		if len(named) == 0 {
			t.Errorf("stage %s: its packages %v name no code; the test is broken", stage, dirs)
		}
		for _, c := range Codes() {
			if c.Stage == stage && !named[c.Code] && c.Retired == "" {
				t.Errorf("%s is registered in stage %s, which none of %v reports", c.Code, stage, dirs)
			}
		}
	}
}

// codeConstants maps the names of codes.go's Code constants to their
// values.
func codeConstants(t *testing.T) map[string]Code {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Code{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for i, n := range v.Names {
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s is not a literal", n.Name)
				}
				val, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out[n.Name] = Code(val)
			}
		}
	}
	if len(out) < len(Codes()) {
		t.Fatalf("codes.go declares %d Code constants, the registry has %d codes", len(out), len(Codes()))
	}
	return out
}

// namedCodes lists the diag.X selectors of dir's non-test Go files.
func namedCodes(t *testing.T, dir string) []string {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	var names []string
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "diag" {
					names = append(names, sel.Sel.Name)
				}
			}
			return true
		})
	}
	return names
}

// TestFixKindsDocumented: docs/diagnostics.md's "Fixes" section names
// exactly the codes whose fix is exact.
func TestFixKindsDocumented(t *testing.T) {
	data := docs.Page("diagnostics.md")
	_, sec, ok := strings.Cut(data, "\n## Fixes\n")
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
