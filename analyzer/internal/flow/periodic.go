package flow

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// Periodic returns the function, fn or one that fn is a closure of, that a
// periodic runner of the package (wait.Until and its kin: model.PeriodicFn)
// runs every period: one given to the runner as a func literal, a method
// value or a function, or an unexported function of the package that such
// a function calls (maxCallerDepth callers deep), as in wait.Until(func() {
// c.resync() }, ...), whoever else calls it: the next period runs it again.
// nil when there is none.
func (p *Package) Periodic(fn *ssa.Function) *ssa.Function {
	for f := fn; f != nil; f = f.Parent() {
		if p.periodic(f, 0) {
			return f
		}
	}
	return nil
}

func (p *Package) periodic(fn *ssa.Function, depth int) bool {
	if p.periodicFns == nil {
		p.periodicFns = map[*ssa.Function]bool{}
		for call := range p.calls {
			for _, f := range p.funcValues(model.PeriodicFn(call.Common())) {
				p.periodicFns[boundMethod(f)] = true
			}
		}
	}
	if p.periodicFns[fn] {
		return true
	}
	if depth >= maxCallerDepth || fn.Parent() != nil {
		return false
	}
	if obj := fn.Object(); obj == nil || obj.Exported() || p.escapes(fn) {
		return false
	}
	// One call from a function run every period is enough: whoever else
	// calls it (once at the start, say), the next period runs it again.
	for _, c := range p.callsOf[fn] {
		for g := c.Parent(); g != nil; g = g.Parent() {
			if g != fn && p.periodic(g, depth+1) {
				return true
			}
		}
	}
	return false
}

// boundMethod returns the method a bound method wrapper (the function of
// a method value, c.resync) calls, or fn itself.
func boundMethod(fn *ssa.Function) *ssa.Function {
	if fn.Synthetic == "" || fn.Object() == nil || len(fn.FreeVars) != 1 {
		return fn
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if m := c.Common().StaticCallee(); m != nil && m.Object() == fn.Object() {
					return m
				}
			}
		}
	}
	return fn
}
