//go:build !unix

package cli

import "os"

var stopSignals = []os.Signal{os.Interrupt}

func signalNumber(os.Signal) int { return 2 }
