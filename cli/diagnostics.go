package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/config"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/load"
)

// printDiagnostics is how every command shows diagnostics on the terminal:
// diag's text writer on standard error (file:line:col: severity: summary
// [code], the source line with a caret, how to fix it), coloured only on a
// terminal without NO_COLOR. parse, fmt, check, schema, gen and run all
// print through it, so the same file gets the same report from each.
func printDiagnostics(e *env, ds diag.Diagnostics) {
	// Excerpts come from .gram files only, read under the loader's rules.
	printDiagnosticsFrom(e, ds, load.ReadSource)
}

// printDiagnosticsFrom is printDiagnostics with the source excerpts read
// by read (gramc import shows its sources as it read them).
func printDiagnosticsFrom(e *env, ds diag.Diagnostics, read func(name string) ([]byte, error)) {
	if len(ds) == 0 {
		return
	}
	ds.Sort()
	opts := diag.TextOptions{Color: e.useColor(e.stderr), ReadFile: read}
	// A terminal shows at most maxPerFile per file, as go/parser does;
	// a pipe or a file gets them all (CI logs, editors, scripts) but for
	// diag.MaxSameCode of one code in one file.
	shown := ds
	if !e.allErrors && isTerminal(e.stderr) {
		opts.MaxPerFile = maxPerFile
		opts.MoreCommand = e.allErrorsCommand()
	} else {
		shown = e.bounded(ds) // diag.MaxSameCode of a code per file
	}
	diag.WriteText(e.stderr, shown, opts) //nolint:errcheck // stderr
	fmt.Fprintln(e.stderr, diag.CountLine(ds))
}

// allErrorsCommand is the command line that shows every diagnostic: this
// one with -e after the subcommand.
func (e *env) allErrorsCommand() string {
	words := []string{"gramc"}
	for i, a := range e.args {
		words = append(words, shellQuote(a))
		if i == 0 {
			words = append(words, "-e")
		}
	}
	return strings.Join(words, " ")
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// knownCodes are the codes a gramc:ignore comment or --disable may name:
// every registered code (diag.Codes).
func knownCodes() []diag.Code {
	var out []diag.Code
	for _, c := range diag.Codes() {
		out = append(out, c.Code)
	}
	return out
}

// addDisableFlag gives a command that prints the diagnostics of the
// packages it loads (schema, gen, run, mcp) gramc check's --disable: the
// same warnings are silenced everywhere, CI and editor alike.
func addDisableFlag(cmd *cobra.Command, e *env) {
	cmd.Flags().StringSliceVar(&e.disable, "disable", nil, "turn these warning codes off (repeatable or comma-separated; overrides gramc.json's)")
}

// loadPackages loads and checks the packages patterns name, for a command
// that goes on with them: their diagnostics are printed (warnings scoped
// by scopeDiagnostics) and an error among them ends the command with
// ExitProblem, a pattern that cannot be loaded with ExitUsage.
func loadPackages(e *env, patterns []string) ([]*check.Package, error) {
	pkgs, diags, err := loadScoped(e, patterns)
	if err != nil {
		return nil, err
	}
	printDiagnostics(e, diags)
	if diags.HasErrors() {
		return nil, exitCode(ExitProblem)
	}
	return pkgs, nil
}

// loadScoped is loadPackages without printing: the packages and their
// diagnostics, scoped and configured as every command scopes them (the
// compiler's MCP tools return them).
func loadScoped(e *env, patterns []string) ([]*check.Package, diag.Diagnostics, error) {
	disabled, err := parseDisabled(strings.Join(e.disable, ","))
	if err != nil {
		return nil, nil, usageErrorf("%v", err)
	}
	pkgs, diags, err := load.Packages(patterns, nil)
	if err != nil {
		return nil, nil, &exitError{code: ExitUsage, err: err}
	}
	// The project's gramc.json (disabled codes, severities), as gramc
	// check applies it; --disable overrides its list.
	cfg, cfgDiags := config.ForPatterns(patterns)
	diags = cfg.Apply(scopeDiagnostics(pkgs, diags, nil, false), disabled)
	diags = append(diags, cfgDiags...)
	diags.Sort()
	return pkgs, diags, nil
}

// loadSomePackages is loadPackages for a command that works on at least
// one package (gen, graph, schema): no paths mean def ("." or "./..."),
// and paths that hold no gram package are a usage error.
func loadSomePackages(e *env, paths []string, def string) ([]*check.Package, error) {
	if len(paths) == 0 {
		paths = []string{def}
	}
	pkgs, err := loadPackages(e, paths)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, usageErrorf("no gram packages in %s", strings.Join(paths, " "))
	}
	return pkgs, nil
}

// scopeDiagnostics applies what the user said about warnings: the
// `// gramc:ignore` comments of the packages' files (check.Suppress) and
// the codes disabled for the run. Every command that reports diagnostics
// of packages filters them through it.
//
// Only gramc check reports a suppression that suppresses nothing
// (reportUnused): the other commands see only some of the diagnostics.
func scopeDiagnostics(pkgs []*check.Package, ds diag.Diagnostics, disabled []diag.Code, reportUnused bool) diag.Diagnostics {
	var files []*ast.File
	for _, p := range pkgs {
		if p != nil {
			files = append(files, p.Files...)
		}
	}
	if reportUnused {
		ds = check.Suppress(files, ds, knownCodes())
	} else {
		ds = check.SuppressOnly(files, ds)
	}
	if len(disabled) == 0 {
		return ds
	}
	out := ds[:0:0]
	for _, d := range ds {
		if d.Severity == diag.Warning && slices.Contains(disabled, d.Code) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// parseDisabled reads --disable's comma-separated codes: each must be a
// known warning code (an error cannot be turned off: a later stage would
// fail on it).
func parseDisabled(list string) ([]diag.Code, error) {
	if list == "" {
		return nil, nil
	}
	known := knownCodes()
	var names []string
	for _, k := range known {
		names = append(names, string(k))
	}
	var out []diag.Code
	for _, f := range strings.Split(list, ",") {
		code := diag.Code(strings.TrimSpace(f))
		if code == "" {
			continue
		}
		if !slices.Contains(known, code) {
			return nil, fmt.Errorf("--disable: unknown code %q%s (every code is documented in docs/diagnostics.md)", code, suggest.DidYouMean(suggest.Closest(string(code), names)))
		}
		out = append(out, code)
	}
	return out, nil
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
		return diag.WriteJSON(e.stdout, e.bounded(ds))
	case "github":
		return diag.WriteGitHub(e.stdout, e.bounded(ds))
	}
	printDiagnostics(e, ds)
	return nil
}

// bounded is ds with at most diag.MaxSameCode diagnostics of a code in a
// file (all of them with -e), then one of that code saying how many more
// there are, at the first one left out. ds is sorted.
func (e *env) bounded(ds diag.Diagnostics) diag.Diagnostics {
	if e.allErrors {
		return ds
	}
	return diag.Bounded(ds, diag.MaxSameCode, "; -e reports all")
}
