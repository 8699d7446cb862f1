// Package cli implements the gramc command line. Each subcommand lives in its
// own file as a newXCmd constructor registered with register; Do runs the
// whole program against explicit streams so tests can drive it.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/internal/usage"
	"github.com/gramc-dev/gramc/runtime"
)

// Version is the gramc version, set at link time with
// -ldflags "-X github.com/gramc-dev/gramc/cli.Version=v1.2.3".
var Version = "devel"

// Exit codes shared by every command.
const (
	ExitOK      = 0 // success
	ExitProblem = 1 // the input has problems (syntax or check errors, stale files)
	ExitUsage   = 2 // bad usage or an I/O error
)

// env is what a command reads from and writes to.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// allErrors (-e) shows every diagnostic on the terminal.
	allErrors bool
	// color is --color: auto (a terminal, without NO_COLOR or TERM=dumb),
	// always or never.
	color string
	// args are the command line (without the program name), for hints
	// that repeat it.
	args []string
	// disable is --disable of schema, gen, run and mcp: warning codes
	// not to print (gramc check has its own).
	disable []string
	// goTools are the Go tools of DoWithTools, by name.
	goTools map[string]runtime.ToolFunc
	// evalRuns, when set, is where gramc eval makes its runs
	// (cli/eval_remote.go): EvalRemote dispatches them, EvalWorker keeps
	// the eval a worker makes them in.
	evalRuns evalRunsAt
}

// commands are the registered subcommand constructors, in registration order.
var commands []func(*env) *cobra.Command

// register adds a subcommand constructor; call it from an init function in
// the command's own file.
func register(newCmd func(*env) *cobra.Command) { commands = append(commands, newCmd) }

// exitError carries an exit code out of a command. Do prints its error
// as every error is printed: "gramc CMD: message" (the go command's
// style), so messages do not name their command themselves. A nil err means the
// command has already printed what the user needs to see.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitCode returns an error that makes Do exit with code without printing.
func exitCode(code int) error { return &exitError{code: code} }

// usageErrorf reports bad usage (exit 2).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// Main runs gramc with the process's arguments and streams.
func Main() int { return Do(os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }

// Do runs gramc with args (without the program name) and returns the exit
// code.
func Do(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return do(&env{stdin: stdin, stdout: stdout, stderr: stderr, args: args})
}

func do(e *env) int {
	args, stderr := e.args, e.stderr
	root := newRootCmd(e)
	root.SetArgs(goStyleFlags(args))
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	var xe *exitError
	if errors.As(err, &xe) {
		if xe.err != nil {
			fmt.Fprintf(stderr, "%s: %s\n", cmd.CommandPath(), errorText(xe.err))
		}
		return xe.code
	}
	// Anything else is a usage error from cobra (unknown flag or command,
	// wrong number of arguments) or an I/O error.
	fmt.Fprintf(stderr, "%s: %s\n", cmd.CommandPath(), errorText(err))
	if usage.IsCobraError(err) {
		// Point at the help of the command the mistake was made in, as the
		// go command does ("Run 'go help build' for usage.").
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return ExitUsage
}

// maxErrorText bounds an error message on the terminal: a provider's error
// body can be megabytes.
const maxErrorText = 4096

// errorText is err's message as the terminal may show it: it can quote a
// file, a model, a provider or a tool, so control characters are escaped
// and a long message is cut with a count (internal/termsafe).
func errorText(err error) string { return termsafe.Text(err.Error(), maxErrorText) }

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "gramc",
		Short: "gramc compiles gram tool and agent declarations",
		Long: `gramc is the toolchain of the gram type-signature language: it checks
.gram files describing LLM tools and agents, emits JSON Schema and provider
tool payloads, generates typed Go code, formats gram files and runs agents.`,
		Version:       versionString(),
		SilenceErrors: true,
		SilenceUsage:  true,
		// A bare `gramc` is a usage error, as a bare `go` is: the help goes
		// to standard error and the exit status is 2.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cmd.SetOut(e.stderr)
			_ = cmd.Help()
			return exitCode(ExitUsage)
		},
	}
	root.PersistentFlags().BoolVarP(&e.allErrors, "all-errors", "e", false, "show every diagnostic (the terminal shows 10 per file by default, other outputs 1000 of a code per file)")
	root.PersistentFlags().StringVar(&e.color, "color", "auto", "color diagnostics: auto (a terminal, unless NO_COLOR is set or TERM=dumb), always or never")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		switch e.color {
		case "auto", "always", "never":
			return nil
		}
		return usageErrorf("--color %q: want auto, always or never", e.color)
	}
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetVersionTemplate("gramc {{.Version}}\n")
	for _, newCmd := range commands {
		root.AddCommand(newCmd(e))
	}
	// cobra's completion command only groups the shells: without a shell
	// (or with an unknown one) it would print its help and exit 0.
	root.InitDefaultCompletionCmd()
	root.SetHelpCommand(newHelpCmd(root))
	addCompletions(root)
	for _, c := range root.Commands() {
		if c.Name() == "completion" && !c.Runnable() {
			c.RunE = func(*cobra.Command, []string) error {
				return usageErrorf("name a shell: bash, zsh, fish or powershell")
			}
		}
	}
	return root
}

// newHelpCmd replaces cobra's help command, which prints the root's help and
// exits 0 for an unknown topic; gramc, like the go command, exits 2.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help prints the help of any command: gramc help check.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, sub := range root.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, sub.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || target == nil || len(rest) > 0 {
				return usageErrorf("help %s: unknown help topic; run 'gramc help' for the commands", strings.Join(args, " "))
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
}
