package diag

import (
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/ast"
)

// TestBounded: at most max diagnostics of a code in a file are kept, in
// order; the rest are one diagnostic of the code at the first one left
// out, saying how many and, when given, how to see them all; other codes
// and other files are bounded apart; ds within the bound is returned as
// it is.
func TestBounded(t *testing.T) {
	at := func(file string, line int) ast.Range {
		return ast.Range{File: file, Start: ast.Pos{Offset: int32(10 * line), Line: int32(line), Column: 1}, End: ast.Pos{Offset: int32(10*line + 1), Line: int32(line), Column: 2}}
	}
	var ds Diagnostics
	for i := 1; i <= 7; i++ {
		ds = append(ds, &Diagnostic{Severity: Warning, Code: CodeUnknownPattern, Range: at("a.gram", i), Summary: "w"})
	}
	ds = append(ds, &Diagnostic{Severity: Error, Code: CodeSyntax, Range: at("a.gram", 8), Summary: "e"},
		&Diagnostic{Severity: Warning, Code: CodeUnknownPattern, Range: at("b.gram", 1), Summary: "w"})
	ds.Sort()

	got := Bounded(ds, 3, "; -e reports all")
	var lines []string
	for _, d := range got {
		lines = append(lines, d.Range.String()+" "+string(d.Code)+" "+d.Summary)
	}
	want := []string{
		"a.gram:1:1 unknown-pattern w",
		"a.gram:2:1 unknown-pattern w",
		"a.gram:3:1 unknown-pattern w",
		"a.gram:4:1 unknown-pattern 4 more warnings of code unknown-pattern in this file are not reported (the first 3 are; -e reports all)",
		"a.gram:8:1 syntax e",
		"b.gram:1:1 unknown-pattern w",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("Bounded:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if got := Bounded(ds, 5, ""); !strings.HasSuffix(got[5].Summary, "(the first 5 are)") {
		t.Errorf("without a way to see them all: %q", got[5].Summary)
	}
	if got := Bounded(ds, len(ds), ""); len(got) != len(ds) {
		t.Errorf("within the bound: %d diagnostics, want %d", len(got), len(ds))
	}
}
