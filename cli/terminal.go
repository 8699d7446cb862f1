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

// useColor reports whether diagnostics written to w may use colour: only
// on a terminal, and never when NO_COLOR is set (https://no-color.org).
func useColor(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	return isTerminal(w)
}
