// Command lostupdate finds Go code that can lose updates when it writes
// Kubernetes objects.
//
// Run it on packages directly:
//
//	lostupdate ./...
//
// or as a go vet tool (the path must be absolute):
//
//	go vet -vettool=$(which lostupdate) ./...
//
// Run "lostupdate help" for the rules and flags.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/lostupdate/lostupdate/analyzer"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
