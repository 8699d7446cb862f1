package cli

import (
	"github.com/gramc-dev/gramc/diag"
)

// printDiagnostics is how every command shows diagnostics on the terminal:
// diag's text writer on standard error (file:line:col: severity: summary
// [code], the source line with a caret, how to fix it), coloured only on a
// terminal without NO_COLOR. parse, fmt, check, schema, gen and run all
// print through it, so the same file gets the same report from each.
func printDiagnostics(e *env, ds diag.Diagnostics) {
	if len(ds) == 0 {
		return
	}
	ds.Sort()
	opts := diag.TextOptions{Color: useColor(e.stderr), MaxPerFile: maxPerFile}
	if e.allErrors {
		opts.MaxPerFile = 0
	}
	diag.WriteText(e.stderr, ds, opts) //nolint:errcheck // stderr
}

// maxPerFile is how many diagnostics of one file the terminal shows unless
// -e asks for all (go/parser stops at 10): a garbage file does not bury
// the first, most useful ones. JSON and GitHub outputs are never cut.
const maxPerFile = 10

// writeDiagnostics prints diagnostics in format: text on standard error,
// json and github on standard output.
func writeDiagnostics(e *env, ds diag.Diagnostics, format string) error {
	switch format {
	case "json":
		return diag.WriteJSON(e.stdout, ds)
	case "github":
		return diag.WriteGitHub(e.stdout, ds)
	}
	printDiagnostics(e, ds)
	return nil
}
