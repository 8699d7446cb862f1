package check

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/docs"
)

// docs/language.md's parameter property table says what the properties
// table says: every parameter property (but the legacy paramName, which
// §2.2 describes in prose) and the types each applies to. The checker, the
// language server and the docs read one truth.
func TestPropertiesTableMatchesDocs(t *testing.T) {
	text := docs.Page("language.md")
	start := strings.Index(text, "| property | applies to | meaning |")
	if start < 0 {
		t.Fatal("docs/language.md has no property table")
	}
	table := text[start:]
	if end := strings.Index(table, "\n\n"); end >= 0 {
		table = table[:end]
	}
	name := regexp.MustCompile("`([A-Za-z]+)")
	documented := map[string]string{} // property → applies-to column
	for _, row := range strings.Split(table, "\n")[2:] {
		cols := strings.Split(row, "|")
		if len(cols) < 4 {
			continue
		}
		for _, m := range name.FindAllStringSubmatch(cols[1], -1) {
			documented[m[1]] = strings.TrimSpace(cols[2])
		}
	}
	seen := map[string]bool{}
	for _, p := range Properties() {
		if p.Owner != OnParam || p.Name == "paramName" {
			continue
		}
		seen[p.Name] = true
		got, ok := documented[p.Name]
		if !ok {
			t.Errorf("parameter property %s is not in docs/language.md's table", p.Name)
			continue
		}
		want := "all"
		if p.Kinds != nil {
			var names []string
			for _, k := range p.Kinds {
				names = append(names, k.String())
			}
			want = strings.Join(names, ", ")
		}
		if got != want {
			t.Errorf("docs/language.md: %s applies to %q, the table says %q", p.Name, got, want)
		}
	}
	for d := range documented {
		if !seen[d] {
			t.Errorf("docs/language.md documents %s, which is not a parameter property", d)
		}
	}
	if !slices.Contains(propertyNames[OnParam], "description") {
		t.Error("no description property")
	}
}
