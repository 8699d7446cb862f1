package check

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
)

var (
	docSectionRE = regexp.MustCompile("(?m)^### `([a-z0-9-]+)`\\s*$")
	docExampleRE = regexp.MustCompile("(?s)```gram\n(.*?)\n```")
	docSevRE     = regexp.MustCompile(`(?m)^\*(error|warning|retired)\*\.`)
)

// TestDocExamples proves that docs/diagnostics.md documents every code
// with an example that produces it (with the documented severity), and
// documents no code the checker does not know.
func TestDocExamples(t *testing.T) {
	src, err := os.ReadFile("../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	locs := docSectionRE.FindAllStringSubmatchIndex(doc, -1)
	documented := map[diag.Code]bool{}
	known := map[diag.Code]bool{}
	for _, c := range Codes() {
		known[c] = true
	}
	for i, loc := range locs {
		code := diag.Code(doc[loc[2]:loc[3]])
		end := len(doc)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		section := doc[loc[1]:end]
		documented[code] = true
		if !known[code] {
			t.Errorf("docs document unknown code %s", code)
			continue
		}
		m := docExampleRE.FindStringSubmatch(section)
		if m == nil {
			t.Errorf("%s: no ```gram example", code)
			continue
		}
		sev := docSevRE.FindStringSubmatch(section)
		if sev == nil {
			t.Errorf("%s: no *error*, *warning* or *retired* severity line", code)
			continue
		}
		if info, _ := diag.Lookup(code); (info.Retired != "") != (sev[1] == "retired") {
			t.Errorf("%s: documented as %s, but the registry disagrees", code, sev[1])
			continue
		}
		if sev[1] == "retired" {
			// The example shows what is accepted now: no diagnostic.
			if _, ds := loadSource(string(code)+".gram", []byte(m[1])); len(ds) != 0 {
				t.Errorf("%s: the example of a retired code should check clean; got %v", code, ds)
			}
			continue
		}
		pkg, ds := loadSource(string(code)+".gram", []byte(m[1]))
		ds = Suppress(pkg.Files, ds, Codes())
		found := false
		for _, d := range ds {
			if d.Code == code && d.Severity.String() == sev[1] {
				found = true
			}
		}
		if !found {
			var got []string
			for _, d := range ds {
				got = append(got, d.Error())
			}
			t.Errorf("%s: example does not produce a %s with this code; got:\n%s", code, sev[1], strings.Join(got, "\n"))
		}
	}
	for _, c := range Codes() {
		if !documented[c] {
			t.Errorf("code %s is not documented in docs/diagnostics.md", c)
		}
	}
}
