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
