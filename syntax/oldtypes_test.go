package syntax_test

import (
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/syntax"
)

// The old textual form's type names, used for the gram form of a textual
// signature, are built-in labels meaning the type they are rewritten to:
// check's builtins table stays the one truth.
func TestOldTypeNamesAreBuiltins(t *testing.T) {
	labels := map[string]string{}
	for _, b := range check.Builtins() {
		labels[b.Name] = b.Name
		for _, a := range b.Aliases {
			labels[a] = b.Name
		}
	}
	for old, gram := range syntax.OldTypeNames {
		if labels[old] != gram {
			t.Errorf("old type name %s becomes %s, but the builtins say %q", old, gram, labels[old])
		}
	}
}
