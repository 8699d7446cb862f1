// Command gramc-temporal runs gram agents durably on Temporal: a worker
// that serves the agents of gram packages, a starter that runs one and
// prints its answer, and a Temporal server for development
// (package gramctemporal; docs/durable.md).
//
//	gramc-temporal dev [--port PORT] [--db-filename FILE]
//	gramc-temporal worker [--address HOST:PORT] [--namespace NS] [--tool NAME=COMMAND]... [paths]
//	gramc-temporal run --agent NAME [--id ID] "input"
package main

import (
	"os"

	"github.com/gramc-dev/gramc/temporal/gramctemporal"
)

func main() { os.Exit(gramctemporal.Main(os.Args[1:], os.Stdout, os.Stderr)) }
