package cli

import (
	"errors"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/lsp"
)

// Parallel to explain.go, version.go and graph.go: every command's file
// registers a newXCmd that builds its cobra.Command (root.go); they share
// that shape, not code.
func init() { register(newLSPCmd) }

func newLSPCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the gram language server (for editors) on standard input and output",
		Long: `gramc lsp runs a language server for .gram files: an editor starts it and
talks the Language Server Protocol over standard input and output. Logs go to
standard error.

It reports gramc check's diagnostics as you type (with a link to each code's
documentation), and offers hover (a tool's signature and JSON Schema, a
parameter's type and constraints), go to definition, find references,
document and workspace symbols, completion, formatting (the same as gramc
fmt), rename, quick fixes and "ignore this diagnostic here", semantic
highlighting and folding.

Settings (initializationOptions, or the "gramc" section of the editor's
configuration): {"targets": ["openai-strict", "gemini"]} lints for those
providers too, as gramc check --target does.

Editor set-up: docs/editors.md.`,
		Example: `  gramc lsp    # started by the editor, not by hand`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), stopSignals...)
			defer stop()
			err := lsp.Serve(ctx, stdio{in: e.stdin, out: e.stdout}, lsp.Options{Version: versionString(), Log: e.stderr})
			if errors.Is(err, lsp.ErrExitWithoutShutdown) {
				return exitCode(ExitProblem)
			}
			if err != nil {
				// A stream broken mid-frame: said on standard error, status 1.
				return &exitError{code: ExitProblem, err: err}
			}
			return nil
		},
	}
}

// stdio is standard input and output as one stream.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdio) Close() error {
	if c, ok := s.in.(io.Closer); ok && s.in != os.Stdin {
		return c.Close()
	}
	return nil
}
