// Package suggest is gramc's one "did you mean" helper: the candidate
// closest to a misspelt name by edit distance. The compiler (diag), the
// CLI and the runtime all suggest through it; it imports nothing of
// gramc's, so the runtime does not link the compiler for it.
package suggest

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Closest returns the candidate closest to name by edit distance, or ""
// when none is close enough to be a plausible misspelling. A candidate that
// differs from name only in case (TOOL, INTEGER) always wins. Ties go to
// the earlier candidate, so the result is deterministic for a given
// candidate order.
func Closest(name string, candidates []string) string {
	for _, c := range candidates {
		if c != name && strings.EqualFold(c, name) {
			return c
		}
	}
	best, bestDist := "", -1
	limit := maxDistance(name)
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := distance(name, c)
		if d <= limit && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// maxDistance is how many edits still count as a misspelling of name.
func maxDistance(name string) int {
	n := utf8.RuneCountInString(name)
	switch {
	case n <= 2:
		return 1
	case n <= 5:
		return 2
	}
	return n/3 + 1
}

// distance is the optimal-string-alignment (Damerau-Levenshtein) distance
// between a and b: insertions, deletions, substitutions and transpositions of
// adjacent characters each cost one edit.
func distance(a, b string) int {
	// Names are short: their runes and rows fit on the stack (a check
	// that suggests for every one of many mistakes allocated gigabytes).
	var runes [2][64]rune
	var rows [3][65]int
	ra, rb := appendRunes(runes[0][:0], a), appendRunes(runes[1][:0], b)
	if len(ra) > 256 || len(rb) > 256 {
		return len(ra) + len(rb) // too long to be a misspelling worth the work
	}
	row := func(i int) []int {
		if len(rb) < len(rows[i]) {
			return rows[i][:len(rb)+1]
		}
		return make([]int, len(rb)+1)
	}
	prev2, prev, cur := row(0), row(1), row(2)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// appendRunes appends the runes of s to buf, as []rune(s) converts.
func appendRunes(buf []rune, s string) []rune {
	for _, r := range s {
		buf = append(buf, r)
	}
	return buf
}

// DidYouMean is how every message offers a guess: "; did you mean X?",
// with X quoted (Go syntax) unless it is a plain name, or "" when there
// is no guess.
func DidYouMean(guess string) string {
	if guess == "" {
		return ""
	}
	return "; did you mean " + Show(guess) + "?"
}

// DidYouMeanCode is DidYouMean for a guess that is gram text rather than a
// name (a node, an arrow, a quoted string): shown as it is written.
func DidYouMeanCode(guess string) string {
	if guess == "" {
		return ""
	}
	return "; did you mean " + guess + "?"
}

// Show is s as a message shows a name: as it is when it is a plain name
// (letters, digits, '_', '-', '.', ':' and '/'), else quoted.
func Show(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r == ':' || r == '/' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return strconv.Quote(s)
		}
	}
	return s
}

// Hint is what a message about the misspelt name appends: DidYouMean of
// the closest candidate when one is close enough, else, when the guess
// would be a stretch, the candidates themselves ("; the agents are a, b,
// c", at most 10 then how many more), so the reader still sees the
// choices. what names the candidates in the plural ("agents").
func Hint(name string, candidates []string, what string) string {
	if g := Closest(name, candidates); g != "" {
		return DidYouMean(g)
	}
	switch len(candidates) {
	case 0:
		return "; there are no " + what
	case 1:
		return "; the only one is " + Show(candidates[0])
	}
	shown := candidates
	more := ""
	if len(shown) > 10 {
		shown, more = shown[:10], ", and "+strconv.Itoa(len(candidates)-10)+" more"
	}
	parts := make([]string, len(shown))
	for i, c := range shown {
		parts[i] = Show(c)
	}
	return "; the " + what + " are " + strings.Join(parts, ", ") + more
}

// UnknownValue is the one wording of a value a flag does not take:
// `unknown --format "x"; did you mean svg?`, or the values listed (Hint;
// what names them in the plural, "formats"). gramc's flags and the
// playground's functions that stand for them say it alike.
func UnknownValue(flag, value string, values []string, what string) string {
	return "unknown " + flag + " " + strconv.Quote(value) + Hint(value, values, what)
}

// DidYouMeanQuoted is DidYouMean for a guess that is a string value (a
// default, a format, a tool choice): always quoted, as the user must
// write it.
func DidYouMeanQuoted(guess string) string {
	if guess == "" {
		return ""
	}
	return "; did you mean " + strconv.Quote(guess) + "?"
}
