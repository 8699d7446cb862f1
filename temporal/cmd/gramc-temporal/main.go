// Command gramc-temporal runs gram agents durably on Temporal: a worker
// that serves the agents of gram packages and a starter that runs one and
// prints its answer (package gramctemporal; docs/durable.md). It links
// the Temporal SDK only; the development server is gramc-temporal-dev.
//
//	gramc-temporal worker [--address HOST:PORT] [--namespace NS] [--tool NAME=COMMAND]... [paths]
//	gramc-temporal run --agent NAME [--id ID] "input"
package main

import (
	"os"

	"github.com/gramc-dev/gramc/temporal/gramctemporal"
)

func main() { os.Exit(gramctemporal.Main(os.Args[1:], os.Stdout, os.Stderr)) }
