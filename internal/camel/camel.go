// Package camel writes a name in upper camel case, as gramc import names
// the types it declares after a tool or property ("get_weather" →
// "GetWeather") and gramc's Go emitter names an enum's constants after
// their values.
package camel

import (
	"strings"
	"unicode"
)

// Case capitalises each word of s, a run of letters and digits, and
// drops what is between them: "get weather-now_2" is "GetWeatherNow2".
func Case(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
