package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"

	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

// stopOnSignal is how gramc run and gramc mcp end on SIGINT, SIGTERM or
// SIGHUP: the returned context is cancelled, every tool command of tools
// is killed with its process group and waited for, and interrupted turns
// the command's outcome into exit status 128+signal (130 for Ctrl-C, 143
// for SIGTERM), as a shell reports a killed command; without a signal it
// returns err unchanged. stop releases the signals. tools may be nil.
func stopOnSignal(ctx context.Context, tools *toolcmd.Runner) (_ context.Context, interrupted func(error) error, stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals...)
	var caught atomic.Value // os.Signal
	go func() {
		select {
		case sig := <-sigs:
			caught.Store(sig)
			cancel()
			if tools != nil {
				tools.Close()
			}
		case <-ctx.Done():
		}
	}()
	interrupted = func(err error) error {
		sig, ok := caught.Load().(os.Signal)
		if !ok {
			return err
		}
		if tools != nil {
			tools.Close()
		}
		return &exitError{code: 128 + signalNumber(sig), err: fmt.Errorf("stopped by %v", sig)}
	}
	return ctx, interrupted, func() { signal.Stop(sigs); cancel() }
}
