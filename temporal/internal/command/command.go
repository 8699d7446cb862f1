// Package command runs the temporal module's commands (gramc-temporal,
// gramc-temporal-dev) as gramc runs its own: a cobra command whose context
// an interrupt or a terminate signal cancels, an error printed once, on
// one line, after the command's name, and gramc's exit statuses.
package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/internal/usage"
)

// Exit statuses, as gramc's: 1 a run or server that failed, 2 a usage or
// set-up error.
const (
	ExitFailed = 1
	ExitUsage  = 2
)

// A UsageError is the user's mistake: its command exits with ExitUsage.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// An ExitStatus is a status a command has already explained: Run
// returns it and prints nothing.
type ExitStatus int

func (e ExitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// Run runs root with args (without the program name) and returns the
// exit status; name is what an error is printed after.
func Run(root *cobra.Command, name string, args []string, stdout, stderr io.Writer) int {
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var status ExitStatus
	if errors.As(err, &status) {
		return int(status)
	}
	fmt.Fprintln(stderr, name+":", termsafe.Line(err.Error(), 2000))
	var ue UsageError
	if errors.As(err, &ue) || usage.IsCobraError(err) {
		return ExitUsage
	}
	return ExitFailed
}
