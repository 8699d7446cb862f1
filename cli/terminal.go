package cli

import (
	"io"
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether s is an interactive terminal. A character
// device is not enough: /dev/null is one too, and `gramc run </dev/null`
// must not prompt. term.IsTerminal asks the terminal driver (isatty).
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// useColor reports whether diagnostics written to w get ANSI colors:
// --color always or never says so; auto colors a terminal unless NO_COLOR
// is set (https://no-color.org) or TERM is dumb.
func (e *env) useColor(w io.Writer) bool {
	switch e.color {
	case "always":
		return true
	case "never":
		return false
	}
	if _, set := os.LookupEnv("NO_COLOR"); set || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}
