package check

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strings"
	"testing"
)

// jsonNumberRE is the JSON number grammar IsJSONNumber implements.
var jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func TestIsJSONNumberAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "-12", "1.5", "1e9", "1E+9", "2.5e-3", "", "-", "01", "1.", ".5", "1e", "+1", "0x1F", "NaN", "1_000"} {
		if got, want := IsJSONNumber(s), json.Valid([]byte(s)); got != want {
			t.Errorf("IsJSONNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

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
		if got, want := IsJSONNumber(s), jsonNumberRE.MatchString(s); got != want {
			t.Errorf("IsJSONNumber(%q) = %v, want %v", s, got, want)
		}
		if isDecimalInt(s) {
			var z big.Int
			if _, ok := z.SetString(s, 10); !ok || z.String() != s {
				t.Errorf("isDecimalInt(%q), but big.Int writes %q", s, z.String())
			}
		}
	}
}

func TestValidToolNameIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	for _, s := range []string{"", "a", "get_weather", "get-weather", "Z9", "a b", "a.b", "é", "a\x00", "ünicode", "tool:x",
		strings.Repeat("a", 64), strings.Repeat("a", 65), strings.Repeat("é", 32), "a\n", "\na", "/", "[", "`", "{", "@"} {
		if got, want := validToolName(s), re.MatchString(s); got != want {
			t.Errorf("validToolName(%q) = %v, want %v", s, got, want)
		}
	}
	for b := 0; b < 256; b++ {
		s := string([]byte{byte(b)})
		if got, want := validToolName(s), re.MatchString(s); got != want {
			t.Errorf("validToolName(%q) = %v, want %v", s, got, want)
		}
	}
}
