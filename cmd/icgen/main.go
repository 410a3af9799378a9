// Command icgen synthesizes independence constraints between atomic blocks
// of concurrent programs and explores them with DPOR; see internal/cli.
package main

import (
	"os"

	"github.com/icgen/icgen/internal/cli"
	"github.com/icgen/icgen/internal/gctune"
)

func main() {
	gctune.Start(gctune.DefaultFloor)
	os.Exit(cli.Execute(os.Args[1:], os.Stdout, os.Stderr))
}
