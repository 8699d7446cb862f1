// Package usage tells cobra's own usage errors from a command's other
// errors, for gramc and the temporal module's commands alike: cobra
// returns them as plain errors, so their text is what is known of them.
package usage

import "strings"

// cobraPrefixes are the texts cobra and pflag begin or hold in a usage
// error: an unknown command or flag, a flag without its argument or with a
// bad one, a bad flag spelling, and a wrong number of arguments.
var cobraPrefixes = []string{
	"unknown command", "unknown flag", "unknown shorthand", "flag needs an argument",
	"invalid argument", "bad flag syntax", "accepts ", "requires at least", "requires at most",
}

// IsCobraError reports whether err is one of cobra's usage errors.
func IsCobraError(err error) bool {
	s := err.Error()
	for _, p := range cobraPrefixes {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
