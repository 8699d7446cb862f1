package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/config"
	"github.com/gramc-dev/gramc/diag"
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
	// fix is --fix: "" (off), "exact" (--fix) or "all" (--fix=all).
	fix string
	// diff (-d) shows the fixes as a diff instead of writing them.
	diff bool
	// verbose (-v) says which configuration file applies.
	verbose bool
}

// diagFormats are the values of --format.
var diagFormats = []string{"text", "json", "github"}

// Parallel to test.go's newTestCmd: a command with an options struct and
// its --format values opens the same way (root.go's convention).
func newCheckCmd(e *env) *cobra.Command {
	var opts checkOptions
	cmd := &cobra.Command{
		Use:   "check " + formatUsage(diagFormats) + " [--werror] [--target T[,T...]] [path ...]",
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

--fix applies the fixes the editor offers as quick fixes, to the files in
place (as gofmt -w writes: mode, owner and links kept), then reports what
is left (a file saved meanwhile is left as it is, and said: exit status
2): only exact ones (the gram form of an old notation, a quoted bare
word); --fix=all also applies guesses (a did-you-mean among several
names). -d prints the fixes as a unified diff instead of writing them.
docs/diagnostics.md ("Fixes") says which codes' fixes are exact.

Every code is explained, with an example, in docs/diagnostics.md and by
gramc explain CODE.

Exit status: 0 when there is no error, 1 when there is one (or a warning
with --werror), 2 for usage or I/O errors.`,
		Example: `  gramc check
  gramc check ./examples/...
  gramc check weather.gram units.gram
  gramc check --format json ./... > diagnostics.json
  gramc check --format github --werror ./...
  gramc check --target openai-strict,gemini ./...
  gramc check --werror --disable target-keyword-in-description ./...
  gramc check --fix ./...
  gramc check --fix=all -d weather.gram`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(e, opts, args)
		},
	}
	f := cmd.Flags()
	formatFlag(cmd, &opts.format, diagFormats, "text")
	f.BoolVar(&opts.werror, "werror", false, "treat warnings as errors (exit 1 when there is any diagnostic)")
	f.StringSliceVar(&opts.targets, "target", nil, "also lint for these providers (repeatable or comma-separated; see above)")
	f.StringSliceVar(&opts.disable, "disable", nil, "turn these warning codes off (repeatable or comma-separated)")
	f.StringVar(&opts.fix, "fix", "", "apply exact fixes in place (--fix=all: guesses too)")
	f.Lookup("fix").NoOptDefVal = "exact"
	f.BoolVarP(&opts.diff, "diff", "d", false, "with --fix: print the fixes as a diff instead of writing them")
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "say which gramc.json applies")
	return cmd
}

func runCheck(e *env, opts checkOptions, args []string) error {
	rep, err := checkPackages(e, opts, args, e.diagnosticsOut(opts.format))
	if err != nil {
		return err
	}
	// An installed gram skill older than gramc (skill.go): one line,
	// never into JSON output's neighbourhood.
	if opts.format != "json" {
		if notice := skillNotice(); notice != "" {
			fmt.Fprintln(e.stderr, notice)
		}
	}
	if rep.fixErr != nil {
		return &exitError{code: ExitUsage, err: rep.fixErr}
	}
	if rep.diags.HasErrors() || (opts.werror && len(rep.diags) > 0) {
		return exitCode(ExitProblem)
	}
	return nil
}

// checkReport is what gramc check found: the diagnostics (sorted, scoped,
// the configuration applied), the packages, the files --fix wrote and
// fixErr when a file changed while it was being fixed (its fixes not
// written).
type checkReport struct {
	pkgs    []*check.Package
	diags   diag.Diagnostics
	written []string
	fixErr  error
}

// checkPackages is gramc check: gramc's diagnostics pipeline
// (load.Diagnostics, which the playground calls too) with check's steps
// added — --fix, --target's lint, gramc.json and --disable — its output
// written to out in opts.format (nil: not written; the compiler's MCP
// tools, check and fix, return the report instead). Its errors are usage
// errors.
func checkPackages(e *env, opts checkOptions, args []string, out io.Writer) (*checkReport, error) {
	// The project's gramc.json, found from the packages up; flags
	// override it.
	cfg, cfgDiags := config.ForPatterns(args)
	if opts.verbose {
		if cfg != nil {
			fmt.Fprintf(e.stderr, "gramc check: using %s\n", cfg.Path)
		} else {
			fmt.Fprintf(e.stderr, "gramc check: no %s (looked from the packages up)\n", config.FileName)
		}
	}
	var targets []schema.Target
	if cfg != nil {
		targets = cfg.Targets
	}
	if len(opts.targets) > 0 {
		ts, err := schema.ParseTargets(strings.Join(opts.targets, ","))
		if err != nil {
			return nil, usageErrorf("--target: %v", err)
		}
		targets = ts
	}
	disabled, err := parseDisabled(strings.Join(opts.disable, ","))
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	switch {
	case opts.fix != "" && opts.fix != "exact" && opts.fix != "all":
		return nil, usageErrorf("--fix=%s: want --fix (exact fixes) or --fix=all", opts.fix)
	case opts.diff && opts.fix == "":
		return nil, usageErrorf("-d shows the fixes of --fix: add --fix")
	}
	// Without --target (whose lint reads the declarations) check needs
	// only the diagnostics and the files' gramc:ignore comments: the
	// loader need not keep the trees and the model of every package.
	lcfg := &load.Config{DiagnosticsOnly: checkLean && len(targets) == 0}
	rep := &checkReport{}
	amend := func(pkgs []*check.Package, diags diag.Diagnostics) ([]*check.Package, diag.Diagnostics, error) {
		if opts.fix != "" {
			var err error
			// A file that changed while being fixed is said after the
			// diagnostics (fixErr); any other error ends the check.
			if pkgs, diags, rep.written, err = fixPackages(e, args, diags, opts.fix == "all", opts.diff); errors.Is(err, errFixesLeft) {
				rep.fixErr = err
			} else if err != nil {
				return nil, nil, err
			}
		}
		if len(targets) > 0 {
			for _, pkg := range pkgs {
				diags = append(diags, schema.Lint(pkg, targets)...)
			}
		}
		if len(pkgs) == 0 && out != nil {
			// Not an error, but said, before the diagnostics.
			patterns := args
			if len(patterns) == 0 {
				patterns = []string{"./..."}
			}
			fmt.Fprintf(e.stderr, "gramc check: warning: %q matched no .gram files\n", strings.Join(patterns, " "))
		}
		return pkgs, diags, nil
	}
	res, err := load.Diagnostics(out, args, lcfg, load.CheckOptions{Amend: amend, Configure: configure(cfg, cfgDiags, disabled)}, e.render(opts.format))
	if err != nil {
		return nil, &exitError{code: ExitUsage, err: err}
	}
	rep.pkgs, rep.diags = res.Packages, res.Diagnostics
	return rep, nil
}

// checkLean is whether gramc check loads with load.Config.DiagnosticsOnly
// (a variable so that a test can compare with the full check).
var checkLean = true

// maxFixPasses bounds the rounds of fixing: a fix can reveal another (a
// file with a syntax error is checked further once it parses).
const maxFixPasses = 10

// fixPackages applies the fixes of ds — exact ones, and guesses too when
// all is set — to their files, checks again and fixes what that reveals,
// in memory (an overlay), then writes each changed file in place as
// gofmt -w does, or with diff prints a unified diff of each instead. It
// returns the packages and diagnostics of the fixed files (what is left)
// and the files written.
func fixPackages(e *env, args []string, ds diag.Diagnostics, all, diff bool) ([]*check.Package, diag.Diagnostics, []string, error) {
	overlay := map[string][]byte{}
	orig := map[string][]byte{}
	var pkgs []*check.Package
	for range maxFixPasses {
		byFile := map[string][][]diag.Edit{}
		for _, d := range ds {
			if k := diag.FixOf(d); k == diag.FixNone || k == diag.FixGuess && !all {
				continue
			}
			edits := d.Edits()
			if f := edits[0].Range.File; f != "" {
				byFile[f] = append(byFile[f], edits)
			}
		}
		changed := false
		for name, fixes := range byFile {
			src, ok := overlay[name]
			if !ok {
				var err error
				if src, err = load.ReadFile(name, load.DefaultMaxFileSize); err != nil {
					return nil, nil, nil, err
				}
				orig[name] = src
			}
			if fixed := diag.ApplyFixes(src, fixes); !bytes.Equal(fixed, src) {
				overlay[name], changed = fixed, true
			}
		}
		if !changed {
			break
		}
		var err error
		if pkgs, ds, err = load.Packages(args, &load.Config{Overlay: overlay}); err != nil {
			return nil, nil, nil, err
		}
	}
	if len(overlay) == 0 {
		pkgs, ds, err := load.Packages(args, nil)
		return pkgs, ds, nil, err
	}
	left := false // a file changed since it was read: not written
	var written []string
	names := slices.Sorted(maps.Keys(overlay))
	for _, name := range names {
		if bytes.Equal(orig[name], overlay[name]) {
			continue
		}
		if diff {
			fmt.Fprintf(e.stdout, "diff %s.orig %s\n", name, name)
			e.stdout.Write(fmtUnifiedDiff(name+".orig", name, orig[name], overlay[name]))
			continue
		}
		if err := fmtWriteFile(name, orig[name], overlay[name]); errors.Is(err, errChangedSinceRead) {
			// Saved meanwhile (an editor): its fixes are not written over
			// what was saved; the others are.
			fmt.Fprintf(e.stderr, "gramc check: %v\n", err)
			left = true
			continue
		} else if err != nil {
			return nil, nil, nil, err
		}
		fmt.Fprintf(e.stderr, "gramc check: fixed %s\n", name)
		written = append(written, name)
	}
	if diff || left {
		// What is left is what the files hold.
		pkgs, ds, err := load.Packages(args, nil)
		if err == nil && left {
			err = errFixesLeft
		}
		return pkgs, ds, written, err
	}
	return pkgs, ds, written, nil
}

// errFixesLeft: a file changed while gramc check --fix ran, and its fixes
// were not written (said for each file).
var errFixesLeft = errors.New("a file changed while it was being fixed; its fixes were not written (run gramc check --fix again)")
