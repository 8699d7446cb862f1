package cli

import (
	"bytes"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/codegen/graph"
)

// Parallel to explain.go and lsp.go: every command's file registers a
// newXCmd that builds its cobra.Command (root.go); they share that shape,
// not code.
func init() { register(newGraphCmd) }

func newGraphCmd(e *env) *cobra.Command {
	var format string
	formats := graph.FormatNames()
	cmd := &cobra.Command{
		Use:   "graph " + formatUsage(formats) + " [path ...]",
		Short: "Draw the agents, tools and types of gram packages",
		Long: `Graph checks the gram packages named by paths (default ./...) and draws
them: each agent, the tools and agents it lists, and the declared types
and enums those tools and typed agents take and return, with edges
labelled by role ("uses", a parameter's name, "returns", a field's name;
"[]" after an array's element). Built-in types are not drawn.

Formats:
  mermaid  a Mermaid flowchart (the default): GitHub renders it in a
           Markdown file inside a mermaid code block
  dot      Graphviz's DOT language: gramc graph --format dot | dot -Tpng
  svg      a standalone SVG picture, laid out by gramc in layers as
           Graphviz's dot would, no label over another (needs neither)

Names are escaped for each format; in Mermaid also % and ', so that no
name can hold a %%{init: ...}%% directive. The output is byte-identical
across runs. The playground (docs/playground.md)
shows the same picture as you type.

Exit status: 0 on success, 1 when the packages have errors, 2 for usage
or I/O errors.`,
		Example: `  gramc graph examples/weather
  gramc graph --format dot ./... | dot -Tsvg > tools.svg
  gramc graph --format svg examples/weather > weather.svg`,
		ValidArgsFunction: completePaths,
		RunE: func(cmd *cobra.Command, args []string) error {
			pkgs, err := loadSomePackages(e, args, "./...")
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := graph.Write(&buf, pkgs, graph.Format(format)); err != nil {
				return &exitError{code: ExitProblem, err: err}
			}
			_, err = e.stdout.Write(buf.Bytes())
			return err
		},
	}
	formatFlag(cmd, &format, formats, string(graph.Mermaid))
	addDisableFlag(cmd, e)
	return cmd
}
