package flow

import (
	"go/token"
	"go/types"

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

// PeriodicLoop returns a loop of the function at is in, around at, that
// waits for a timer on every way round (for range ticker.C, <-time.After(d)
// or time.Sleep(d) on every path back to its header, a select on a timer):
// a hand-written periodic runner, which runs at again one period later.
// A loop over a collection is not one. nil when there is none.
func (p *Package) PeriodicLoop(at ssa.Instruction) *Loop {
	for _, l := range p.Loops(at.Parent()) {
		if l.Blocks[at.Block()] && !l.Iterates && l.waitsEachRound() {
			return l
		}
	}
	return nil
}

// waitsEachRound reports whether a loop blocks on a timer in a block that
// every way back to its header passes.
func (l *Loop) waitsEachRound() bool {
	latches := l.latches()
	if len(latches) == 0 {
		return false
	}
	for _, b := range l.order {
		if !all(latches, b.Dominates) {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				if n := model.CalleeName(x.Common()); n == "time.Sleep" {
					return true
				}
			case *ssa.UnOp:
				if _, _, ok := model.TimerChan(x.X); ok && x.Op == token.ARROW {
					return true // for range ticker.C, <-time.After(d)
				}
			case *ssa.Select:
				if !x.Blocking {
					continue
				}
				for _, st := range x.States {
					if _, _, ok := model.TimerChan(st.Chan); ok && st.Dir == types.RecvOnly {
						return true
					}
				}
			}
		}
	}
	return false
}
