package syntax

import (
	"math/rand"
	"testing"
)

// TestFormatCommentsAnywhere inserts line comments and line breaks at
// random places of valid files; every variant that still parses must
// format to the same tree (comments included) and idempotently.
func TestFormatCommentsAnywhere(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	inserts := []string{" // c\n", "\n// own line\n", "\n", "  ", "\n\n// after a blank\n\n", "// tight\n"}
	variants := 0
	for _, src := range formatInputs(t) {
		for v := 0; v < 200; v++ {
			mut := append([]byte(nil), src...)
			for k := rng.Intn(6) + 1; k > 0; k-- {
				at := rng.Intn(len(mut) + 1)
				ins := inserts[rng.Intn(len(inserts))]
				mut = append(mut[:at], append([]byte(ins), mut[at:]...)...)
			}
			if _, diags := ParseFile("stress.gram", mut); diags.HasErrors() {
				continue
			}
			variants++
			checkFormat(t, "stress.gram", mut)
			if t.Failed() {
				t.Fatalf("input:\n%s", mut)
			}
		}
	}
	if variants < 100 {
		t.Fatalf("only %d variants parsed", variants)
	}
	t.Logf("%d variants", variants)
}
