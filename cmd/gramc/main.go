// Command gramc is the gram type-signature language toolchain.
package main

import (
	"os"

	"github.com/gramc-dev/gramc/cli"
)

func main() { os.Exit(cli.Main()) }
