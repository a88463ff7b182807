// Command custom-gcl is golangci-lint v2 with the lostupdate plugin: the
// binary `golangci-lint custom` builds from .custom-gcl.example.yml, built
// here without cloning golangci-lint from GitHub (the tests run where only
// the Go module proxy is reachable). Like the binary `golangci-lint custom`
// builds, its version carries a hash of the plugin's source (set with
// -ldflags -X main.version=...), which golangci-lint salts its cache with:
// a changed analyzer never gets the cached results of the old one.
package main

import (
	"fmt"
	"os"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/lostupdate/lostupdate/plugin"
)

var version = "(devel)"

func main() {
	info := commands.BuildInfo{Version: version, Commit: "lostupdate e2e", Date: "(unknown)", GoVersion: "unknown"}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
