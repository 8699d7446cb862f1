package check

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/diag"
)

// TestSuggestionsFix applies every diagnostic's edit (diag.Diagnostic.Edit:
// what the CLI shows as the suggestion and an editor applies as a quick
// fix) in every file of testdata/check, one at a time, and checks again:
// the fixed file must have fewer diagnostics of that code and no more of any other. An edit that
// replaced the wrong text would leave the problem or make a new one.
func TestSuggestionsFix(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "check", "*.gram"))
	if err != nil || len(paths) == 0 {
		t.Fatal("no testdata")
	}
	fixes := 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, ds := loadSource(filepath.Base(path), src)
		count := func(ds diag.Diagnostics, code diag.Code) int {
			n := 0
			for _, d := range ds {
				if d.Code == code {
					n++
				}
			}
			return n
		}
		for _, d := range ds {
			es := d.Edits()
			if len(es) == 0 {
				continue
			}
			fixes++
			fixed, ok := applyEdits(src, es)
			if !ok {
				t.Errorf("%s: %s: edits %+v overlap or leave the file", path, d.Error(), es)
				continue
			}
			e := es[len(es)-1]
			s, end := int(e.Range.Start.Offset), int(e.Range.End.Offset)
			_, after := loadSource(filepath.Base(path), []byte(fixed))
			if count(after, d.Code) >= count(ds, d.Code) || len(after)-count(after, d.Code) > len(ds)-count(ds, d.Code) {
				line, _, _ := strings.Cut(fixed[max(0, s-40):], "\n")
				t.Errorf("%s: applying the fix of %q (%q over %q) leaves as many %s diagnostics or makes others; fixed text near it: %q", filepath.Base(path), d.Summary, e.NewText, src[s:end], d.Code, line)
			}
		}
	}
	if fixes < 10 {
		t.Fatalf("only %d fixes in testdata: the test proves little", fixes)
	}
}

// applyEdits applies non-overlapping edits, from the last to the first.
func applyEdits(src []byte, es []diag.Edit) (string, bool) {
	es = slices.Clone(es)
	slices.SortFunc(es, func(a, b diag.Edit) int { return int(b.Range.Start.Offset - a.Range.Start.Offset) })
	out := string(src)
	end := len(src)
	for _, e := range es {
		s, t := int(e.Range.Start.Offset), int(e.Range.End.Offset)
		if s < 0 || t > end || t < s {
			return "", false
		}
		out = out[:s] + e.NewText + out[t:]
		end = s
	}
	return out, true
}
