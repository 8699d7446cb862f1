package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/importer"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/termsafe"
)

func init() { register(newImportCmd) }

type importOptions struct {
	output     string
	mcp        []string
	mcpTimeout time.Duration
	werror     bool
	// disable is --disable: warning codes not to report (nor to fail
	// --werror on), as gramc check takes it.
	disable []string
}

func newImportCmd(e *env) *cobra.Command {
	var opts importOptions
	cmd := &cobra.Command{
		Use:   "import [-o FILE] [--mcp COMMAND|URL]... [SOURCE...]",
		Short: "Write a gram package from an OpenAPI document, tool definitions or a live MCP server",
		Long: `Import writes one formatted gram package from the tools a team already has:
an OpenAPI 3.0 or 3.1 document (JSON or YAML: each operation a tool), an
MCP tools/list result or what gramc schema --target mcp or jsonschema
writes, OpenAI tool or function definitions (chat, strict, Responses),
Anthropic tool definitions, or a JSON Schema (its object and enumeration
definitions as types). Each file's kind is read from its content; - is
standard input. With --mcp COMMAND|URL, the tools a live MCP server lists
(a command run over stdio without API keys in its environment, or a
streamable HTTP URL, as gramc diff --against-mcp reaches one), waited for at
most --mcp-timeout.

Every operation or tool becomes a tool. Names are kept when they are valid,
and made valid otherwise; descriptions, defaults, enums, bounds, formats,
examples, deprecation and required sets come along, and named schemas
become :Type and :Enum declarations, recursion included. What gram cannot
hold (a union, patternProperties, not, if/then, a tuple, a non-JSON request
body, ...) is dropped or approximated with a positioned warning, each with
an import-... code (gramc explain CODE; docs/import.md lists them). The
warnings end with a count per code; --disable CODE[,CODE...] turns codes
off, as for gramc check.

The package goes to standard output, or to FILE with -o (written whole or
not at all). Exit status: 0 with the package written; 1 when a source
cannot be read (an error at its place) or, with --werror, on any warning,
and then nothing is written; 2 for usage or I/O errors.`,
		Example: `  gramc import openapi.yaml > api.gram
  gramc import -o tools.gram tools.json
  gramc import --mcp 'npx -y @modelcontextprotocol/server-everything' -o everything.gram
  gramc import --mcp http://localhost:8080/mcp --werror`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && len(opts.mcp) == 0 {
				return usageErrorf("name a source: a file (- for standard input) or --mcp COMMAND|URL")
			}
			return runImport(cmd.Context(), e, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.output, "output", "o", "", "write the package to FILE (whole or not at all) instead of standard output")
	f.StringArrayVar(&opts.mcp, "mcp", nil, "import the tools a live MCP server lists: a command run over stdio, or a streamable HTTP URL (repeatable)")
	f.DurationVar(&opts.mcpTimeout, "mcp-timeout", 30*time.Second, "how long --mcp waits for a server's tool list")
	f.BoolVar(&opts.werror, "werror", false, "fail on any warning (exit 1, nothing written)")
	f.StringSliceVar(&opts.disable, "disable", nil, "turn these warning codes off (repeatable or comma-separated)")
	return cmd
}

func runImport(ctx context.Context, e *env, opts importOptions, args []string) error {
	disabled, err := parseDisabled(strings.Join(opts.disable, ","))
	if err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	var srcs []importer.Source
	stdinRead := false
	for _, name := range args {
		var data []byte
		var err error
		if name == "-" {
			if stdinRead {
				return usageErrorf("- names standard input twice")
			}
			stdinRead = true
			data, err = readBounded(e.stdin, "standard input")
		} else {
			// A FIFO or a device is refused, not waited on: a stream is
			// piped to standard input, "-".
			var f *os.File
			f, _, err = regular.Open(name)
			if errors.Is(err, regular.ErrNotRegular) {
				err = fmt.Errorf("%w: a source is a regular file, or - for standard input", err)
			}
			if err == nil {
				data, err = readBounded(f, name)
				f.Close()
			}
		}
		if err != nil {
			return &exitError{code: ExitUsage, err: err}
		}
		srcs = append(srcs, importer.Source{Name: name, Data: data})
	}
	for _, server := range opts.mcp {
		data, err := mcpToolList(ctx, server, opts.mcpTimeout, "--mcp", "gramc import")
		if err != nil {
			return err
		}
		srcs = append(srcs, importer.Source{Name: server, Data: data, Server: true})
	}
	res, ds, err := importPackage(srcs)
	if len(ds) > 0 {
		printImportDiagnostics(e, ds, srcs)
		return exitCode(ExitProblem)
	}
	if err != nil {
		return err
	}
	res.Warnings = slices.DeleteFunc(res.Warnings, func(d *diag.Diagnostic) bool { return slices.Contains(disabled, d.Code) })
	if len(res.Warnings) > 0 {
		printImportDiagnostics(e, res.Warnings, srcs)
		fmt.Fprintln(e.stderr, codeCounts(res.Warnings))
		if opts.werror {
			fmt.Fprintf(e.stderr, "gramc import: --werror: nothing written\n")
			return exitCode(ExitProblem)
		}
	}
	if opts.output == "" {
		_, err := e.stdout.Write(res.Gram)
		return err
	}
	if err := regular.WriteFile(opts.output, res.Gram); err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	return nil
}

// importPackage imports srcs as gramc import does: the package, or the
// positioned error of a source that cannot be read (as a diagnostic), or
// another error.
func importPackage(srcs []importer.Source) (*importer.Result, diag.Diagnostics, error) {
	res, err := importer.Import(srcs)
	var ie *importer.Error
	if errors.As(err, &ie) {
		msg := ie.Msg
		if ie.At.Start.Line == 0 && ie.Pointer != "" {
			msg += " (at " + ie.Pointer + ")" // a server's listing: no line to show
		}
		return nil, diag.Diagnostics{{Severity: diag.Error, Summary: msg, Range: ie.At}}, nil
	}
	if err != nil {
		return nil, nil, &exitError{code: ExitProblem, err: err}
	}
	return res, nil, nil
}

// readBounded reads at most importer.MaxSourceBytes.
func readBounded(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, importer.MaxSourceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > importer.MaxSourceBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes (importer.MaxSourceBytes)", name, importer.MaxSourceBytes)
	}
	return data, nil
}

// printImportDiagnostics prints diagnostics placed in the sources as
// every command prints its diagnostics (printDiagnostics: at most
// diag.MaxSameCode of a code in a file unless -e), their excerpts from the
// sources as read (not from the disk again, and never from a server).
func printImportDiagnostics(e *env, ds diag.Diagnostics, srcs []importer.Source) {
	files := map[string][]byte{}
	// A live server is named once, then by a short label: its command
	// (npx -y @modelcontextprotocol/server-everything) would start every
	// line.
	labels := map[string]string{}
	for _, s := range srcs {
		if !s.Server {
			files[s.Name] = s.Data
		} else if _, ok := labels[s.Name]; !ok {
			labels[s.Name] = fmt.Sprintf("mcp#%d", len(labels)+1)
		}
	}
	if len(labels) > 0 {
		relabeled := make(diag.Diagnostics, len(ds))
		said := map[string]bool{}
		for i, d := range ds {
			c := *d
			if l, ok := labels[d.Range.File]; ok {
				if !said[l] {
					said[l] = true
					fmt.Fprintf(e.stderr, "%s is the MCP server %s\n", l, termsafe.Line(d.Range.File, 300))
				}
				c.Range.File = l
			}
			relabeled[i] = &c
		}
		ds = relabeled
	}
	printDiagnosticsFrom(e, ds, func(name string) ([]byte, error) {
		if data, ok := files[name]; ok {
			return data, nil
		}
		return nil, os.ErrNotExist
	})
}

// codeCounts is the warnings' count per code, most first: what to read
// first, or to turn off with --disable.
func codeCounts(ds diag.Diagnostics) string {
	n := map[diag.Code]int{}
	for _, d := range ds {
		n[d.Code]++
	}
	codes := slices.Collect(maps.Keys(n))
	slices.SortFunc(codes, func(a, b diag.Code) int {
		if n[a] != n[b] {
			return n[b] - n[a]
		}
		return strings.Compare(string(a), string(b))
	})
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%s %d", c, n[c]))
	}
	return "by code: " + strings.Join(parts, ", ") + " (--disable CODE turns one off)"
}
