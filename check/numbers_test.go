package check

import (
	"math/big"
	"regexp"
	"testing"
)

// jsonNumberRE is the JSON number grammar isJSONNumber implements.
var jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func TestIsJSONNumberIsTheGrammar(t *testing.T) {
	inputs := []string{"", "-", "0", "-0", "00", "01", "1", "-1", "10", "1.", ".5", "1.5", "1.5e", "1.5e+", "1.5e+3",
		"1e3", "1E-3", "-0.0e0", "+1", "1_000", "0x1F", "1.2.3", "1e3e3", "9223372036854775808", "1 ", " 1", "1a", "-.5", "0.", "e5"}
	// Every string of up to four characters over the grammar's alphabet.
	const alphabet = "0159-+.eE"
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			gen(prefix+alphabet[i:i+1], n-1)
		}
	}
	gen("", 4)
	for _, s := range inputs {
		if got, want := isJSONNumber(s), jsonNumberRE.MatchString(s); got != want {
			t.Errorf("isJSONNumber(%q) = %v, want %v", s, got, want)
		}
		if isDecimalInt(s) {
			var z big.Int
			if _, ok := z.SetString(s, 10); !ok || z.String() != s {
				t.Errorf("isDecimalInt(%q), but big.Int writes %q", s, z.String())
			}
		}
	}
}
