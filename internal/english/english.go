// Package english writes the small grammatical words gramc's messages and
// generated comments build around names and counts: "a" or "an" before a
// word, and a noun's plural after a count.
package english

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Article returns "an" when word is pronounced starting with a vowel
// sound and "a" otherwise, by its spelling: a vowel letter, or an
// initialism whose first letter is named with a vowel sound ("an HTTP
// tool", "an MCP server", "a URL"). Words whose sound contradicts their
// first letter ("a user", "an hour") are listed.
func Article(word string) string {
	w := strings.TrimLeft(word, "\"'`:(")
	if w == "" {
		return "a"
	}
	lower := strings.ToLower(w)
	for _, p := range []string{"uni", "use", "usu", "uti", "one", "eu"} {
		if strings.HasPrefix(lower, p) {
			return "a"
		}
	}
	for _, p := range []string{"hour", "honest", "honor", "honour", "heir"} {
		if strings.HasPrefix(lower, p) {
			return "an"
		}
	}
	first, _ := utf8.DecodeRuneInString(w)
	if isInitialism(w) {
		// Letters named with a vowel sound: A E F H I L M N O R S X.
		if strings.ContainsRune("AEFHILMNORSX", unicode.ToUpper(first)) {
			return "an"
		}
		return "a"
	}
	if strings.ContainsRune("aeiouAEIOU", first) {
		return "an"
	}
	return "a"
}

// A returns word preceded by its article: A("enum") is "an enum".
func A(word string) string { return Article(word) + " " + word }

// isInitialism reports whether w starts with two or more capitals (an
// initialism such as HTTP or URL, or a Go name built on one, such as
// HTTPServer), which is read letter by letter.
func isInitialism(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsUpper(r) {
			break
		}
		n++
	}
	return n >= 2
}

// Plural returns n and the noun, in the plural unless n is 1: Plural(1,
// "error") is "1 error", Plural(3, "warning") "3 warnings". Nouns ending in
// s, x, z, ch or sh take "es"; a consonant and y becomes "ies".
func Plural(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Noun returns noun in the plural unless n is 1.
func Noun(n int, noun string) string {
	if n == 1 || noun == "" {
		return noun
	}
	switch {
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "z"),
		strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	case len(noun) > 1 && noun[len(noun)-1] == 'y' && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}
