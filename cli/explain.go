package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/check/explain"
)

// Parallel to lsp.go, version.go and graph.go: every command's file
// registers a newXCmd that builds its cobra.Command (root.go); they share
// that shape, not code.
func init() { register(newExplainCmd) }

func newExplainCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "explain CODE",
		Short: "Explain a diagnostic code: what it means, an example and the fix",
		Long: `Explain prints the documentation of a diagnostic code (the name in
brackets after a message, such as unknown-type): what it means, an example
that produces it, the message it produces, and the fix: a corrected
example that checks clean. The documentation is built into gramc,
so it works offline, like rustc --explain.`,
		Example: `  gramc explain unknown-type
  gramc explain target-strict-free-form-object`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := explainCode(args[0])
			if err != nil {
				return err
			}
			fmt.Fprint(e.stdout, text)
			return nil
		},
	}
}

// explainCode is the explanation gramc explain prints, or a usage error
// that suggests the closest code.
func explainCode(code string) (string, error) {
	text, err := explain.Lookup(code)
	if err != nil {
		return "", usageErrorf("%w", err)
	}
	return text, nil
}
