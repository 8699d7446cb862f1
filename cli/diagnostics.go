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
	diag.WriteText(e.stderr, ds, diag.TextOptions{Color: useColor(e.stderr)}) //nolint:errcheck // stderr
}

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
