package check

import (
	"fmt"
	"testing"
)

// TestFiniteRecordsLinear holds the finiteness walk to a bounded number of
// field visits per field, whatever order the types are declared in: a
// walk that settles one type per pass over all of them (quadratic in a
// chain, which froze the playground for minutes on a shared link) makes
// n²/2 visits here. Counting visits, not time, keeps the test exact.
func TestFiniteRecordsLinear(t *testing.T) {
	const n = 2000
	for _, tc := range []struct {
		name     string
		src      []byte
		infinite int // types with no finite value
	}{
		{"chain in dependency order", typeChain(n, true), 0},
		{"chain in reverse order", reverseChain(n, false), 0},
		{"flat", typeChain(n, false), 0},
		// The last type needs the first: a circle of required fields, none finite.
		{"circle", reverseChain(n, true), n},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pkg, _ := loadSource("types.gram", tc.src)
			fields := 0
			for _, td := range pkg.Types {
				fields += len(td.Fields)
			}
			finite, visits := finiteRecords(pkg.Types)
			if visits > 2*fields {
				t.Errorf("%d field visits for %d types of %d fields: more than 2 per field", visits, len(pkg.Types), fields)
			}
			infinite := 0
			for _, td := range pkg.Types {
				if !finite[td] {
					infinite++
				}
			}
			if infinite != tc.infinite {
				t.Errorf("%d types with no finite value, want %d", infinite, tc.infinite)
			}
		})
	}
}

// reverseChain declares type i after type i+1 (each type's required field
// names the one declared before it); with circle, the last declared type,
// T00000, needs T{n-1} instead of Str, closing a circle.
func reverseChain(n int, circle bool) []byte {
	b := []byte("[Str:Type | (s::String)]\n")
	for i := n - 1; i >= 0; i-- {
		next := "Str"
		if i+1 < n {
			next = fmt.Sprintf("T%05d", i+1)
		} else if circle {
			next = "T00000"
		}
		b = fmt.Appendf(b, "[T%05d:Type | (next::%s), (note::String {optional: true})]\n", i, next)
	}
	return b
}
