// Command gramc-temporal-dev is a Temporal server for development: every
// service in this process, on SQLite, on 127.0.0.1 only (package
// devserver; docs/durable.md). It links the whole Temporal server, so it
// is a command apart from gramc-temporal, which the worker and the runs
// need: building it takes five times the CPU time (docs/durable.md).
//
//	gramc-temporal-dev [--port PORT] [--namespace NS] [--db-filename FILE]
package main

import (
	"os"

	"github.com/gramc-dev/gramc/temporal/devserver"
)

func main() { os.Exit(devserver.Main(os.Args[1:], os.Stdout, os.Stderr)) }
