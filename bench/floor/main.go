// Command floor is the AST-only analyzer lostupdate is measured against: it
// walks every file of every package and does nothing else, so its time and
// memory are the driver's own cost (loading, parsing, type checking).
//
// With FLOOR_FACTS=1 it declares a fact type, which makes the standalone
// driver load every dependency from source, as it must for any analyzer
// with facts; that is the floor for an analyzer with facts.
package main

import (
	"go/ast"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"
)

type fact struct{}

func (*fact) AFact() {}

var analyzer = &analysis.Analyzer{
	Name: "floor",
	Doc:  "floor: walk the syntax of every package and report nothing",
	Run: func(pass *analysis.Pass) (any, error) {
		n := 0
		for _, f := range pass.Files {
			ast.Inspect(f, func(ast.Node) bool { n++; return true })
		}
		return n, nil
	},
}

func main() {
	if os.Getenv("FLOOR_FACTS") != "" {
		analyzer.FactTypes = []analysis.Fact{new(fact)}
	}
	singlechecker.Main(analyzer)
}
