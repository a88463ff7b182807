package analyzer

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/rv"
)

// The facts lostupdate exports and imports: the summaries of flow (a
// function returns a read, writes its argument, retries its function
// argument, ...) and of rv (a function parses or orders its argument, a
// field holds a resourceVersion), and a mark on the packages that export
// any, so that their importers are analysed.

// packageFact marks a package that exports lostupdate facts, so that a
// package importing only such packages is still analysed.
type packageFact struct{}

func (*packageFact) AFact()         {}
func (*packageFact) String() string { return "has summaries" }

// exportFacts exports the summaries of the package's exported functions and
// methods that callers in other packages need.
func (ck *checker) exportFacts() {
	any := false
	for _, fn := range ck.funcs {
		if fn.Parent() != nil {
			continue
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj == nil || !obj.Exported() {
			continue
		}
		ck.current = fn
		if f := ck.flow.Fact(fn); f != nil {
			ck.pass.ExportObjectFact(obj, f)
			any = true
		}
	}
	ck.current = nil
	if any {
		ck.pass.ExportPackageFact(new(packageFact))
	}
}

type factSource struct{ pass *analysis.Pass }

func (s factSource) FuncFact(fn *types.Func) *flow.FuncFact {
	var f flow.FuncFact
	if s.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// rvResult runs the resourceVersion analysis of the package once, when
// opaque-rv is on, and exports the resourceVersion summaries of its
// functions and fields.
func (ck *checker) rvResult() *rv.Result {
	if ck.rv == nil {
		ck.rv = rv.Analyze(ck.ssaPkg, ck.funcs, rvFacts{ck.pass})
		if exportRVFacts(ck.pass, ck.rv) && ck.flow != nil {
			// Only a package in scope makes its importers in scope.
			ck.pass.ExportPackageFact(new(packageFact))
		}
		ck.rvServes = len(ck.rv.Findings) > 0 && servesVersions(ck.pass, ck.rv)
	}
	return ck.rv
}

type rvFacts struct{ pass *analysis.Pass }

func (s rvFacts) FuncFact(fn *types.Func) *rv.FuncFact {
	var f rv.FuncFact
	if s.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

func (s rvFacts) FieldFact(v *types.Var) *rv.FieldFact {
	var f rv.FieldFact
	if s.pass.ImportObjectFact(v, &f) {
		return &f
	}
	return nil
}

// exportRVFacts exports the facts of a package's functions and fields and
// reports whether there were any.
func exportRVFacts(pass *analysis.Pass, res *rv.Result) bool {
	for obj, f := range res.Funcs {
		pass.ExportObjectFact(obj, f)
	}
	for v, f := range res.Fields {
		pass.ExportObjectFact(v, f)
	}
	return len(res.Funcs)+len(res.Fields) > 0
}
