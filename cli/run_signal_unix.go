//go:build unix

package cli

import (
	"os"
	"syscall"
)

// stopSignals end gramc run: Ctrl-C, a polite kill, a closed terminal.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalNumber is sig's number, for the exit status 128+n.
func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 2
}
