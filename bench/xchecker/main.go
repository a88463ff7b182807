// Command xchecker is lostupdate under the x/tools singlechecker driver,
// which loads every dependency from source (packages.LoadAllSyntax) because
// the analyzer has facts. lostupdate's own command loads from source only
// the packages that can carry facts; bench/run and scripts/compare-drivers
// keep this driver as the reference it is measured and checked against.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/lostupdate/lostupdate/analyzer"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
