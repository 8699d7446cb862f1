package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/syntax"
	"github.com/gramc-dev/gramc/syntax/reftree"
)

func init() { register(newParseCmd) }

// parseOptions are gramc parse's flags.
type parseOptions struct {
	sexp bool // --sexp: print each file's tree as an S-expression
	json bool // --json: print each file's tree as JSON
}

func newParseCmd(e *env) *cobra.Command {
	var opts parseOptions
	cmd := &cobra.Command{
		Use:   "parse [--sexp | --json] [paths]",
		Short: "Check the syntax of gram files",
		Long: `Parse reads the gram files that paths name and reports their syntax
errors (syntax only: the files are not type-checked; use gramc check for
that). Paths work as for every command: files, directories, dir/...;
no path means ./... .

Syntax errors are printed to standard error as gramc check prints them:
file:line:col: error: summary [code], the source line and how to fix it.

--sexp prints, for each file that parses, one line with its syntax tree in
the reference grammar's (tree-sitter-gram's) S-expression vocabulary, e.g.
(gram_pattern (node_pattern identifier: (symbol))).
--json prints, for each file that parses, a JSON object {"file", "tree"}
whose tree has the same nodes with their field names, start and end
positions ({"offset", "line", "column"}; 1-based lines and columns in
characters) and children.

Exit status: 0 when every file parses, 1 when a file has syntax errors,
2 for usage or I/O errors.`,
		Example: `  gramc parse weather.gram
  gramc parse ./...
  gramc parse --sexp a.gram b.gram`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.sexp && opts.json {
				return usageErrorf("--sexp and --json cannot be used together")
			}
			return runParse(e, opts, args)
		},
	}
	cmd.Flags().BoolVar(&opts.sexp, "sexp", false, "print each file's tree as a one-line S-expression")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print each file's tree as JSON")
	return cmd
}

func runParse(e *env, opts parseOptions, patterns []string) error {
	units, problems, err := load.Expand(patterns, nil)
	if err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	var srcs []syntax.Source
	for _, u := range units {
		us, ps := load.Read(u, nil)
		problems = append(problems, ps...)
		srcs = append(srcs, us...)
	}
	// A file that cannot be read is reported, and the others are parsed.
	printDiagnostics(e, problems)
	failed := len(problems) > 0
	results := syntax.ParseFiles(srcs)
	jsonCount := 0
	for _, r := range results {
		if r.Diags.HasErrors() {
			failed = true
			printDiagnostics(e, r.Diags)
			continue
		}
		switch {
		case opts.sexp:
			fmt.Fprintln(e.stdout, reftree.Sexp(r.File))
		case opts.json:
			// {"file": name, "tree": ...}, the tree streamed pattern by
			// pattern: a large file's JSON is never held in memory whole.
			// Several files are one JSON array of them.
			indent := ""
			if len(results) > 1 {
				indent = "  "
				if jsonCount == 0 {
					fmt.Fprint(e.stdout, "[\n  ")
				} else {
					fmt.Fprint(e.stdout, ",\n  ")
				}
			}
			jsonCount++
			name, _ := json.Marshal(r.File.Name)
			fmt.Fprintf(e.stdout, "{\n%s  \"file\": %s,\n%s  \"tree\": ", indent, name, indent)
			if err := reftree.WriteJSON(e.stdout, r.File, indent+"  "); err != nil {
				return &exitError{code: ExitUsage, err: fmt.Errorf("%s: %w", r.File.Name, err)}
			}
			fmt.Fprintf(e.stdout, "\n%s}", indent)
			if len(results) == 1 {
				fmt.Fprintln(e.stdout)
			}
		}
	}
	if opts.json && len(results) > 1 {
		if jsonCount == 0 {
			fmt.Fprint(e.stdout, "[")
		}
		fmt.Fprintln(e.stdout, "\n]")
	}
	if failed {
		return exitCode(ExitProblem)
	}
	return nil
}
