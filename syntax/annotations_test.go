package syntax

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"

	"github.com/gramc-dev/gramc/ast"
)

// TestManyAnnotations: the number of annotations on a pattern is bounded
// by the file only. participle's repetition stops at MaxIterations
// (1,000,000) with a misleading `unexpected "("` (issue 12.9); the list is
// looped by hand. The test lowers participle's limit so that it runs
// quickly and would fail under a participle repetition.
func TestManyAnnotations(t *testing.T) {
	defer func(n int) { participle.MaxIterations = n }(participle.MaxIterations)
	participle.MaxIterations = 1000
	src := strings.Repeat("@a(1) ", 1500) + "(x)\n"
	f, ds := ParseString("many.gram", src)
	if len(ds) != 0 {
		t.Fatalf("%d annotations: %v", 1500, ds.Err())
	}
	ap, ok := f.Patterns[0].(*ast.AnnotatedPattern)
	if !ok || len(ap.Annotations) != 1500 {
		t.Fatalf("got %T with %d annotations", f.Patterns[0], len(ap.Annotations))
	}
}

// TestTokensBeforeFirstError: the coarse scanner stops after
// MaxTokensWithoutGroup tokens outside any group, so memory before the
// first error is bounded (issue 12.9: 9 MB of "-->" took 1.2 GB because
// participle takes every token before parsing); the error is still the
// first one, at 1:1.
func TestTokensBeforeFirstError(t *testing.T) {
	src := strings.Repeat("-->", 3*MaxTokensWithoutGroup)
	sc := newCoarseScanner("a.gram", src)
	n := 0
	for {
		tok, err := sc.Next()
		if err != nil || tok.EOF() {
			break
		}
		n++
	}
	if n > MaxTokensWithoutGroup+1 {
		t.Errorf("the scanner yielded %d tokens", n)
	}
	_, ds := ParseString("a.gram", src)
	if len(ds) != 1 || ds[0].Range.Start.Line != 1 || ds[0].Range.Start.Column != 1 {
		t.Errorf("diagnostics %v, want one at 1:1", ds)
	}
	// When the parser does get as far (a pathological run of labels), the
	// error names the limit.
	src = "@@x" + strings.Repeat(":A", MaxTokensWithoutGroup) + " (x)\n"
	_, ds = ParseString("b.gram", src)
	if len(ds) != 1 || !strings.Contains(ds[0].Summary, "more than 65536 tokens in a row outside any") {
		t.Errorf("diagnostics %v, want the limit named", ds)
	}
}
