package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

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
	ds.Sort()
	opts := e.render("text")
	opts.Text.ReadFile = read
	diag.Render(e.stderr, ds, opts) //nolint:errcheck // stderr
}

// render is how this run shows diagnostics in format: text (on standard
// error) coloured on a terminal without NO_COLOR, and there at most
// maxPerFile of a file, as go/parser does; a pipe or a file gets them all
// (CI logs, editors, scripts) but for diag.MaxSameCode of one code in one
// file, as JSON and GitHub output do; -e shows every one.
func (e *env) render(format string) diag.RenderOptions {
	opts := diag.RenderOptions{Format: format, All: e.allErrors, SeeAll: "; -e reports all"}
	if format == "text" {
		opts.Text.Color = e.useColor(e.stderr)
		if !e.allErrors && isTerminal(e.stderr) {
			opts.Text.MaxPerFile = maxPerFile
			opts.Text.MoreCommand = e.allErrorsCommand()
		}
	}
	return opts
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
	// The project's gramc.json (disabled codes, severities), as gramc
	// check applies it; --disable overrides its list.
	cfg, cfgDiags := config.ForPatterns(patterns)
	rep, err := load.Check(patterns, nil, load.CheckOptions{Partial: true, Configure: configure(cfg, cfgDiags, disabled)})
	if err != nil {
		return nil, nil, &exitError{code: ExitUsage, err: err}
	}
	return rep.Packages, rep.Diagnostics, nil
}

// configure is the step of the pipeline (load.CheckOptions.Configure)
// that applies gramc.json and --disable's codes to the scoped
// diagnostics, and adds gramc.json's own.
func configure(cfg *config.Config, cfgDiags diag.Diagnostics, disabled []diag.Code) func(diag.Diagnostics) diag.Diagnostics {
	return func(ds diag.Diagnostics) diag.Diagnostics {
		return append(cfg.Apply(ds, disabled), cfgDiags...)
	}
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

// parseDisabled reads --disable's comma-separated codes: each must be a
// known warning code (an error cannot be turned off: a later stage would
// fail on it).
func parseDisabled(list string) ([]diag.Code, error) {
	if list == "" {
		return nil, nil
	}
	known := diag.KnownCodes()
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

// diagnosticsOut is where diagnostics in format go: text on standard
// error, json and github on standard output.
func (e *env) diagnosticsOut(format string) io.Writer {
	if format == "json" || format == "github" {
		return e.stdout
	}
	return e.stderr
}
