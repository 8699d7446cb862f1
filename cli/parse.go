package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/syntax"
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
		Use:   "parse [--sexp | --json] FILE...",
		Short: "Check the syntax of gram files",
		Long: `Parse reads each gram file and reports its syntax errors (syntax only:
the files are not type-checked; use gramc check for that).

For every file that fails to parse, one line is printed to standard error:
file:line:col: error: message [syntax], with the number of further errors.

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
  gramc parse --sexp a.gram b.gram`,
		Args: cobra.MinimumNArgs(1),
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

func runParse(e *env, opts parseOptions, paths []string) error {
	srcs := make([]syntax.Source, 0, len(paths))
	for _, p := range paths {
		text, err := syntax.ReadFile(p)
		if err != nil {
			return &exitError{code: ExitUsage, err: fmt.Errorf("%w", err)}
		}
		srcs = append(srcs, syntax.Source{Name: p, Text: text})
	}
	results := syntax.ParseFiles(srcs)
	failed := false
	for _, r := range results {
		if r.Diags.HasErrors() {
			failed = true
			fmt.Fprintln(e.stderr, diag.ErrorList(r.Diags.Errors()).Error())
			continue
		}
		switch {
		case opts.sexp:
			fmt.Fprintln(e.stdout, syntax.Sexp(r.File))
		case opts.json:
			b, err := json.MarshalIndent(struct {
				File string           `json:"file"`
				Tree *syntax.TreeNode `json:"tree"`
			}{r.File.Name, syntax.Tree(r.File)}, "", "  ")
			if err != nil {
				return &exitError{code: ExitUsage, err: fmt.Errorf("%s: %w", r.File.Name, err)}
			}
			fmt.Fprintf(e.stdout, "%s\n", b)
		}
	}
	if failed {
		return exitCode(ExitProblem)
	}
	return nil
}
