package importer_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/importer"
)

// docExampleRE is a code's section of docs/import.md: its code, the
// source (JSON or YAML) and the gram it imports as.
var docExampleRE = regexp.MustCompile("(?m)^### `(import-[a-z-]+)`\n\n(?s:.*?)```(json|yaml)\n((?s:.*?))\n```\n\nimports as\n\n```gram\n((?s:.*?))```\n")

// TestDocExamples: every import code has a section in docs/import.md
// whose example reports it, and the gram shown is what the example
// imports as (GRAMC_UPDATE=1 writes it).
func TestDocExamples(t *testing.T) {
	const page = "../docs/import.md"
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	update := os.Getenv("GRAMC_UPDATE") != ""
	seen := map[diag.Code]bool{}
	out := doc
	for _, m := range docExampleRE.FindAllStringSubmatch(doc, -1) {
		code := diag.Code(m[1])
		seen[code] = true
		res, err := importer.Import([]importer.Source{{Name: "example." + m[2], Data: []byte(m[3] + "\n")}})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		found := false
		for _, w := range res.Warnings {
			if w.Code == code {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the example reports %v", code, res.Warnings)
		}
		if string(res.Gram) != m[4] {
			if update {
				out = strings.Replace(out, m[0], strings.Replace(m[0], "```gram\n"+m[4]+"```", "```gram\n"+string(res.Gram)+"```", 1), 1)
				continue
			}
			t.Errorf("%s: the example imports as\n%s\nnot as docs/import.md shows:\n%s", code, res.Gram, m[4])
		}
	}
	for _, c := range diag.Codes() {
		if c.Stage == diag.StageImport && !seen[c.Code] {
			t.Errorf("docs/import.md has no example of %s", c.Code)
		}
	}
	if update && out != doc {
		if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
