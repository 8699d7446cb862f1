package diag

import (
	"fmt"

	"github.com/gramc-dev/gramc/internal/english"
)

// MaxSameCode bounds the diagnostics of one code in one file that gramc
// reports, on the command line and in the playground: a file of two
// million `[]` gave two million warnings, 774 MB of JSON (issue 35.3).
// The rest are counted in one diagnostic of the code (Bounded).
const MaxSameCode = 1000

// Bounded is ds (sorted) with at most max diagnostics of a code in a file,
// then one of that code saying how many more there are, at the first one
// left out. seeAll ends that diagnostic's parenthesis with how to see
// them all ("; -e reports all"), or is "" where there is no way.
func Bounded(ds Diagnostics, max int, seeAll string) Diagnostics {
	if len(ds) <= max {
		return ds
	}
	type key struct {
		file string
		code Code
	}
	count := map[key]int{}
	first := map[key]*Diagnostic{}
	out := make(Diagnostics, 0, min(len(ds), 4*max))
	for _, d := range ds {
		k := key{d.Range.File, d.Code}
		count[k]++
		switch n := count[k]; {
		case n <= max:
			out = append(out, d)
		case n == max+1:
			first[k] = d
		}
	}
	for k, d := range first {
		more := count[k] - max
		out = append(out, &Diagnostic{Severity: d.Severity, Code: d.Code, Range: d.Range,
			Summary: fmt.Sprintf("%s of code %s in this file are not reported (the first %d are%s)", english.Plural(more, "more "+d.Severity.String()), d.Code, max, seeAll)})
	}
	out.Sort()
	return out
}
