package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/load"
)

func init() { register(newCheckCmd) }

// checkOptions are gramc check's flags.
type checkOptions struct {
	format string // text, json or github
	werror bool   // treat warnings as errors
	// targets is --target: providers whose rules are linted too
	// (schema.Lint), repeated or comma-separated: they add up.
	targets []string
	// disable is --disable: warning codes not to report, likewise.
	disable []string
}

// diagFormats are the values of --format.
var diagFormats = []string{"text", "json", "github"}

func newCheckCmd(e *env) *cobra.Command {
	var opts checkOptions
	cmd := &cobra.Command{
		Use:   "check [--format text|json|github] [--werror] [--target T[,T...]] [path ...]",
		Short: "Type-check gram packages and report every problem",
		Long: `Check loads gram packages, checks every rule of the language (tools,
parameters, types, enums, agents) and reports all problems of all files in
one run, sorted by position.

Paths work like the go command's: .gram files named together form one
package, a directory is a package (its .gram files), and "dir/..." walks
dir recursively (skipping testdata and names starting with "." or "_").
With no path, check loads ./... .

Formats:
  text    file:line:col: severity: message [code], the source line with a
          caret underline, and how to fix it (on standard error; colored
          on a terminal unless NO_COLOR is set)
  json    a JSON array on standard output; each element has file, line,
          column, endLine, endColumn (1-based, characters; endColumn is
          exclusive), severity, code, message, detail, and suggestion and
          related when there are any
  github  GitHub Actions annotations (::error file=...::message) on
          standard output

With --target, check also reports what the named providers would reject
or what gramc has to adapt for them (provider compatibility lint): tool
names outside a provider's rules, recursion for Gemini, OpenAI strict-mode
limits, keywords or formats a target does not support (with the fallback
taken, as a warning).
Targets: ` + targetList() + `, or "all".

Warnings can be scoped: --disable CODE[,CODE...] turns codes off for the
run, and a comment "// gramc:ignore CODE -- reason" at the end of a line
(or alone on the line before) suppresses those warnings there; one that
suppresses nothing is reported (unused-ignore). Errors cannot be turned
off. Text output ends with a count: "1 error, 3 warnings".

Every code is explained, with an example, in docs/diagnostics.md.

Exit status: 0 when there is no error, 1 when there is one (or a warning
with --werror), 2 for usage or I/O errors.`,
		Example: `  gramc check
  gramc check ./examples/...
  gramc check weather.gram units.gram
  gramc check --format json ./... > diagnostics.json
  gramc check --format github --werror ./...
  gramc check --target openai-strict,gemini ./...
  gramc check --werror --disable target-keyword-in-description ./...`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(e, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.format, "format", "text", "output format: "+strings.Join(diagFormats, ", "))
	f.BoolVar(&opts.werror, "werror", false, "treat warnings as errors (exit 1 when there is any diagnostic)")
	f.StringSliceVar(&opts.targets, "target", nil, "also lint for these providers (repeatable or comma-separated; see above)")
	f.StringSliceVar(&opts.disable, "disable", nil, "turn these warning codes off (repeatable or comma-separated)")
	return cmd
}

func runCheck(e *env, opts checkOptions, args []string) error {
	if !slices.Contains(diagFormats, opts.format) {
		return usageErrorf("unknown --format %q%s", opts.format, suggest.Hint(opts.format, diagFormats, "formats"))
	}
	var targets []schema.Target
	if len(opts.targets) > 0 {
		ts, err := schema.ParseTargets(strings.Join(opts.targets, ","))
		if err != nil {
			return usageErrorf("--target: %v", err)
		}
		targets = ts
	}
	disabled, err := parseDisabled(strings.Join(opts.disable, ","))
	if err != nil {
		return usageErrorf("%v", err)
	}
	pkgs, diags, err := load.Packages(args, nil)
	if err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	if len(pkgs) == 0 {
		patterns := args
		if len(patterns) == 0 {
			patterns = []string{"./..."}
		}
		fmt.Fprintf(e.stderr, "gramc check: warning: %q matched no .gram files\n", strings.Join(patterns, " "))
	}
	if len(targets) > 0 {
		for _, pkg := range pkgs {
			diags = append(diags, schema.Lint(pkg, targets)...)
		}
		diags.Sort()
	}
	diags = scopeDiagnostics(pkgs, diags, disabled, true)
	if err := writeDiagnostics(e, diags, opts.format); err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	if diags.HasErrors() || (opts.werror && len(diags) > 0) {
		return exitCode(ExitProblem)
	}
	return nil
}
