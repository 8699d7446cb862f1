package usage

import (
	"errors"
	"io"
	"testing"

	"github.com/spf13/cobra"
)

// TestCobraErrors runs a real cobra command into each of its usage
// errors; a command's own error is not one.
func TestCobraErrors(t *testing.T) {
	for _, args := range [][]string{
		{"nosuch"},          // unknown command
		{"sub", "--nosuch"}, // unknown flag
		{"sub", "-z"},       // unknown shorthand flag
		{"sub", "--n"},      // flag needs an argument
		{"sub", "--n", "x"}, // invalid argument
		{"sub", "---n"},     // bad flag syntax
		{"sub", "a", "b"},   // accepts at most 1 arg(s)
		{"two"},             // requires at least 2 arg(s)
		{"one", "a", "b"},   // accepts 1 arg(s)
	} {
		err := run(args)
		if err == nil || !IsCobraError(err) {
			t.Errorf("%q: %v is not taken for a usage error", args, err)
		}
	}
	if err := run([]string{"sub", "fail"}); err == nil || IsCobraError(err) {
		t.Errorf("the command's own error %v is taken for a usage error", err)
	}
}

func run(args []string) error {
	root := &cobra.Command{Use: "root", SilenceErrors: true, SilenceUsage: true, Args: cobra.NoArgs, RunE: func(*cobra.Command, []string) error { return nil }}
	var n int
	sub := &cobra.Command{Use: "sub", Args: cobra.MaximumNArgs(1), RunE: func(_ *cobra.Command, args []string) error {
		if len(args) == 1 && args[0] == "fail" {
			return errors.New("the unknown tool's flag file could not be read") // words of a usage error, not cobra's
		}
		return nil
	}}
	sub.Flags().IntVar(&n, "n", 0, "")
	root.AddCommand(sub,
		&cobra.Command{Use: "two", Args: cobra.MinimumNArgs(2), RunE: func(*cobra.Command, []string) error { return nil }},
		&cobra.Command{Use: "one", Args: cobra.ExactArgs(1), RunE: func(*cobra.Command, []string) error { return nil }})
	root.SetArgs(args)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	return root.Execute()
}
