package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/spf13/cobra"
)

func init() { register(newSchemaCmd) }

type schemaOptions struct {
	target  []string // repeated or comma-separated: they add up
	tools   []string
	agent   string
	out     string
	request bool
	model   string // with --request: the agent's model instead
}

func newSchemaCmd(e *env) *cobra.Command {
	var opts schemaOptions
	cmd := &cobra.Command{
		Use:   "schema [--target T[,T...]|all] [--tool NAME]... [--agent NAME] [-o DIR] [paths]",
		Short: "Print the JSON Schema or provider tool payloads of gram tools",
		Long: `Schema checks the gram packages named by paths (default ./...) and prints
the selected tools as the target's JSON: an array of entries in declaration
order, indented, ending in a newline, byte-identical across runs.

Targets: ` + targetList() + `; a comma-separated
list, or "all", prints an object with each target's array, in this order.

--tool selects tools by name (repeatable); --agent selects the tools an
agent lists. --agent NAME --request prints instead the request the agent's
first turn sends, without the conversation (its instruction, tools, tool
choice and structured-output format), as the agent's provider's client
encodes it, or as the --target named does (openai, openai-responses,
anthropic, gemini); --model Provider/name shows it for that model
instead (Gemini/gemini-2.5-flash: the final-answer tool). With -o DIR, each tool is written to DIR/<tool>.<target>.json
as a single entry instead (for every target named). A tool the target's provider would reject is
reported as a positioned error (exit 1); run 'gramc check --target T' to
also see the keywords moved into descriptions.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.model != "" && !opts.request {
				return usageErrorf("--model goes with --agent NAME --request")
			}
			if opts.request {
				target := ""
				if cmd.Flags().Changed("target") {
					target = strings.Join(opts.target, ",")
				}
				return runSchemaRequest(e, opts, target, args)
			}
			return runSchema(e, opts, args)
		},
	}
	cmd.Flags().StringSliceVarP(&opts.target, "target", "t", []string{string(schema.JSONSchema)}, "output format: "+targetList()+"; repeatable, a comma list, or all")
	cmd.Flags().StringSliceVar(&opts.tools, "tool", nil, "select tools by name (repeatable or comma-separated)")
	cmd.Flags().StringVar(&opts.agent, "agent", "", "select the tools of this agent")
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "write one file per tool and target into `DIR`")
	cmd.Flags().BoolVar(&opts.request, "request", false, "with --agent: print the agent's first request, without the conversation")
	cmd.Flags().StringVar(&opts.model, "model", "", "with --request: the model the request is for (Provider/name), instead of the agent's")
	addDisableFlag(cmd, e)
	return cmd
}

func runSchema(e *env, opts schemaOptions, args []string) error {
	targets, err := schema.ParseTargets(strings.Join(opts.target, ","))
	if err != nil {
		return usageErrorf("--target: %w", err)
	}
	pkgs, err := loadSomePackages(e, args, "./...")
	if err != nil {
		return err
	}
	tools, lint, err := schemaLintedTools(pkgs, opts, targets)
	if len(lint) > 0 {
		printDiagnostics(e, lint)
		return exitCode(ExitProblem)
	}
	if err != nil {
		return err
	}
	if opts.out != "" {
		for _, target := range targets {
			if err := writeSchemaFiles(opts.out, tools, target); err != nil {
				return err
			}
		}
		return nil
	}
	out, err := schema.EmitTargets(tools, targets)
	if err != nil {
		return &exitError{code: ExitProblem, err: err}
	}
	_, err = e.stdout.Write(out)
	return err
}

// schemaLintedTools are the tools opts selects of pkgs, or the lint
// errors of those a target's provider would reject — every one, not only
// the first: what gramc schema emits (schema.EmitTargets) or reports.
func schemaLintedTools(pkgs []*check.Package, opts schemaOptions, targets []schema.Target) ([]*check.Tool, diag.Diagnostics, error) {
	tools, err := schemaSelectTools(pkgs, opts)
	if err != nil {
		return nil, nil, err
	}
	return tools, schema.Lint(&check.Package{Tools: tools}, targets).Errors(), nil
}

// schemaSelectTools returns the tools named by --agent and --tool, in
// declaration order (an agent's: check.Agent.ModelTools, its tools then
// the agents it lists); unknown names are usage errors with a
// suggestion.
func schemaSelectTools(pkgs []*check.Package, opts schemaOptions) ([]*check.Tool, error) {
	var tools []*check.Tool
	for _, p := range pkgs {
		tools = append(tools, p.Tools...)
	}
	if opts.agent != "" {
		var names []string
		var agent *check.Agent
		for _, p := range pkgs {
			for _, a := range p.Agents {
				names = append(names, a.Name)
				if a.Name == opts.agent && agent == nil {
					agent = a
				}
			}
		}
		if agent == nil {
			return nil, usageErrorf("unknown agent %q%s", opts.agent, schemaSuggestion(opts.agent, names, "agents"))
		}
		tools = agent.ModelTools() // its listed agents too, as --request sends them
	}
	if len(opts.tools) == 0 {
		return tools, nil
	}
	avail := map[string]bool{}
	var names []string
	for _, t := range tools {
		avail[t.Name] = true
		names = append(names, t.Name)
	}
	want := map[string]bool{}
	for _, n := range opts.tools {
		for _, n := range strings.Split(n, ",") {
			if !avail[n] {
				where := "tools"
				if opts.agent != "" {
					where = "tools of agent " + opts.agent
				}
				return nil, usageErrorf("unknown tool %q%s", n, schemaSuggestion(n, names, where))
			}
			want[n] = true
		}
	}
	var out []*check.Tool
	for _, t := range tools {
		if want[t.Name] {
			out = append(out, t)
		}
	}
	return out, nil
}

// schemaSuggestion is the hint for a misspelt name (internal/suggest).
func schemaSuggestion(name string, candidates []string, what string) string {
	return suggest.Hint(name, candidates, what)
}

// writeSchemaFiles writes DIR/<tool>.<target>.json for each tool: the
// tool's entry, indented, ending in a newline.
func writeSchemaFiles(dir string, tools []*check.Tool, target schema.Target) error {
	seen := map[string]string{} // lower-case name -> name
	for _, t := range tools {
		if t.Name == "" || t.Name != filepath.Base(t.Name) || strings.HasPrefix(t.Name, ".") {
			return &exitError{code: ExitProblem, err: fmt.Errorf("tool name %q cannot be a file name", t.Name)}
		}
		// File names are compared without case: on macOS and Windows
		// getWeather.json and GetWeather.json are one file.
		key := strings.ToLower(t.Name)
		if other, dup := seen[key]; dup {
			if other == t.Name {
				return &exitError{code: ExitProblem, err: fmt.Errorf("two selected tools are named %q (from different packages), so their files would collide; name one package's directory, or select an agent with --agent", t.Name)}
			}
			return &exitError{code: ExitProblem, err: fmt.Errorf("tools %q and %q differ only in case, so their files would be one file on macOS and Windows; rename one, or select tools with --tool", other, t.Name)}
		}
		seen[key] = t.Name
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	for _, t := range tools {
		raw, err := schema.Entry(t, target)
		if err != nil {
			return &exitError{code: ExitProblem, err: err}
		}
		var buf bytes.Buffer
		if err := json.Indent(&buf, raw, "", "  "); err != nil {
			return &exitError{code: ExitProblem, err: err}
		}
		buf.WriteByte('\n')
		path := filepath.Join(dir, t.Name+"."+string(target)+".json")
		// Replace through a temporary file: a reader (or a crash) never
		// sees a half-written schema.
		if err := regular.WriteFile(path, buf.Bytes()); err != nil {
			return &exitError{code: ExitUsage, err: err}
		}
	}
	return nil
}

// targetList names every target (schema.Targets), for help texts.
func targetList() string {
	names := make([]string, 0, len(schema.Targets()))
	for _, t := range schema.Targets() {
		names = append(names, string(t))
	}
	return strings.Join(names, ", ")
}
