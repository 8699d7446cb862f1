package check

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
)

// expectation is one `// ERROR "substring"` or `// WARNING "substring"`
// annotation at the end of a line.
type expectation struct {
	file    string
	line    int
	sev     diag.Severity
	substr  string
	matched bool
}

var annotationRE = regexp.MustCompile(`(ERROR|WARNING) "((?:[^"\\]|\\.)*)"`)

// expectations reads the annotations of a file: a `//` comment at the end
// of a line holding one or more ERROR "..." or WARNING "..." items.
func expectations(t *testing.T, name string) []*expectation {
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []*expectation
	for i, line := range strings.Split(string(src), "\n") {
		j := strings.LastIndex(line, "// ")
		if j < 0 {
			continue
		}
		for _, m := range annotationRE.FindAllStringSubmatch(line[j:], -1) {
			sev := diag.Error
			if m[1] == "WARNING" {
				sev = diag.Warning
			}
			out = append(out, &expectation{file: name, line: i + 1, sev: sev, substr: strings.ReplaceAll(m[2], `\"`, `"`)})
		}
	}
	return out
}

// matchAnnotations fails t for every diagnostic without a matching
// annotation on its line and every annotation without a diagnostic. A
// diagnostic matches when the annotation's text is a substring of
// "summary [code]".
func matchAnnotations(t *testing.T, exps []*expectation, ds diag.Diagnostics) {
	t.Helper()
	for _, d := range ds {
		text := fmt.Sprintf("%s [%s]", d.Summary, d.Code)
		found := false
		for _, e := range exps {
			if filepath.Clean(e.file) == filepath.Clean(d.Range.File) && e.line == int(d.Range.Start.Line) && e.sev == d.Severity && strings.Contains(text, e.substr) {
				e.matched, found = true, true
			}
		}
		if !found {
			t.Errorf("%s: unexpected %s: %s", d.Range, d.Severity, text)
		}
	}
	for _, e := range exps {
		if !e.matched {
			t.Errorf("%s:%d: missing %s matching %q", e.file, e.line, e.sev, e.substr)
		}
	}
}

// TestAnnotated checks every testdata/check/*.gram file as a one-file
// package, and every directory under testdata/check as a package.
func TestAnnotated(t *testing.T) {
	files, _ := filepath.Glob("../testdata/check/*.gram")
	dirs, _ := filepath.Glob("../testdata/check/*/")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".gram"), func(t *testing.T) {
			_, ds, err := loadPaths(f)
			if err != nil {
				t.Fatal(err)
			}
			matchAnnotations(t, expectations(t, f), ds)
		})
	}
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() {
			continue
		}
		t.Run(filepath.Base(d), func(t *testing.T) {
			_, ds, err := loadPaths(d)
			if err != nil {
				t.Fatal(err)
			}
			members, _ := filepath.Glob(filepath.Join(d, "*.gram"))
			var exps []*expectation
			for _, m := range members {
				exps = append(exps, expectations(t, m)...)
			}
			matchAnnotations(t, exps, ds)
		})
	}
}

// TestEveryCodeHasATestFile requires testdata/check/<code>.gram for every
// code, and that the file produces that code.
func TestEveryCodeHasATestFile(t *testing.T) {
	for _, code := range Codes() {
		if info, _ := diag.Lookup(code); info.Retired != "" {
			continue // parameter-scope.gram shows what is accepted now
		}
		name := filepath.Join("../testdata/check", string(code)+".gram")
		if _, err := os.Stat(name); err != nil {
			t.Errorf("no test file for code %s: %v", code, err)
			continue
		}
		_, ds, err := loadPaths(name)
		if err != nil {
			t.Fatal(err)
		}
		if !hasCode(ds, code) {
			t.Errorf("%s does not produce %s", name, code)
		}
	}
}

func hasCode(ds diag.Diagnostics, code diag.Code) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}

// TestCodesUnique guards the append-only code list.
func TestCodesUnique(t *testing.T) {
	seen := map[diag.Code]bool{}
	for _, c := range Codes() {
		if seen[c] {
			t.Errorf("code %s listed twice", c)
		}
		if !regexp.MustCompile(`^[a-z]+(-[a-z0-9]+)*$`).MatchString(string(c)) {
			t.Errorf("code %q is not kebab-case", c)
		}
		seen[c] = true
	}
}

// TestCleanPackages: the seeds, the design example and the maintained
// examples check without any diagnostic (./... skips the broken example in
// examples/testdata, as the go command skips testdata).
func TestCleanPackages(t *testing.T) {
	pkgs, ds, err := loadPaths("../testdata/examples/...", "../examples/...")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pkgs {
		names = append(names, p.Dir)
	}
	sort.Strings(names)
	for _, want := range []string{"../testdata/examples", "../testdata/examples/seed"} {
		if sort.SearchStrings(names, want) == len(names) || names[sort.SearchStrings(names, want)] != want {
			t.Errorf("package %s not loaded (got %v)", want, names)
		}
	}
	for _, d := range ds {
		t.Errorf("unexpected: %s", d.Error())
	}
}
