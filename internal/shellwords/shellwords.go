// Package shellwords splits the simple command lines the docs show
// (README.md, docs/*.md) as a POSIX shell would, for the tests that run
// them: the main module's doc-command tests and the temporal module's.
package shellwords

import "strings"

// A Line is one command line split: its words, the file of a "> file"
// redirect ("" for none), and whether it ends with "&" (in the background).
type Line struct {
	Words      []string
	Redirect   string
	Background bool
}

// Split splits s: words, single and double quotes, a trailing "# comment",
// a "> file" redirect and a final "&".
func Split(s string) Line {
	var l Line
	var w strings.Builder
	inWord, quote := false, byte(0)
	redirectNext := false
	flush := func() {
		if !inWord {
			return
		}
		if redirectNext {
			l.Redirect, redirectNext = w.String(), false
		} else {
			l.Words = append(l.Words, w.String())
		}
		w.Reset()
		inWord = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			flush()
			return l
		case c == '>' && !inWord:
			redirectNext = true
		case c == '&' && !inWord && (i+1 == len(s) || s[i+1] == ' '):
			flush()
			l.Background = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return l
}
