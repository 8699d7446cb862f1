package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/internal/suggest"
)

// formatFlag gives cmd its --format flag, stored in *p (def until set),
// taking one of values: the help lists them, shell completion offers them,
// and any other value is a usage error when the command line is parsed
// (exit 2), worded the same by every command: unknown --format "x" and
// a did-you-mean (suggest.Hint). Every command with --format registers it
// here, so a new one lists, completes and checks its values as the others.
func formatFlag(cmd *cobra.Command, p *string, values []string, def string) {
	*p = def
	cmd.Flags().Var(&formatValue{p: p, values: values}, "format", "output format: "+strings.Join(values, ", "))
	_ = cmd.RegisterFlagCompletionFunc("format", fixedValues(values))
}

// formatUsage is a command's Use synopsis of its --format flag:
// "[--format a|b|c]".
func formatUsage(values []string) string {
	return "[--format " + strings.Join(values, "|") + "]"
}

// formatValue is a --format flag's pflag.Value: Set accepts only values.
type formatValue struct {
	p      *string
	values []string
}

func (v *formatValue) String() string { return *v.p }

// Type is "string", so the help reads --format string as for any other
// string flag.
func (v *formatValue) Type() string { return "string" }

// Set returns an exitError, which cobra passes on wrapped (pflag's
// InvalidValueError unwraps to it), so do prints the message alone and
// exits with ExitUsage.
func (v *formatValue) Set(s string) error {
	if !slices.Contains(v.values, s) {
		return usageErrorf("%s", suggest.UnknownValue("--format", s, v.values, "formats"))
	}
	*v.p = s
	return nil
}
