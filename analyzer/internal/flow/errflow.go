package flow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// Fate is what becomes of the error of a write.
type Fate uint8

const (
	Handled   Fate = iota // returned, wrapped and returned, requeued, or passed on to code the model cannot follow
	Dropped               // never used
	Logged                // only logged
	Swallowed             // a conflict is caught and the function goes on as if it succeeded
)

func (f Fate) String() string {
	return [...]string{"handled", "dropped", "only logged", "swallowed"}[f]
}

// ErrorFate says what happens to an error value err produced by a write
// call: whether a 409 in it can reach a retry. check is the IsConflict call
// whose conflict branch drops it, for Swallowed.
func (p *Package) ErrorFate(err ssa.Value, write ssa.Instruction) (fate Fate, check *ssa.Call) {
	if err == nil {
		return Dropped, nil
	}
	t := p.taint(err)
	success := p.successBlocks(t, write)
	for _, c := range t.conflictChecks {
		succ := conflictSuccessor(c)
		if succ == nil {
			continue
		}
		if !p.handledFrom(succ, write, t, success) {
			return Swallowed, c
		}
	}
	if len(t.swallowers) > 0 {
		return Swallowed, t.swallowers[0]
	}
	if t.handled {
		return Handled, nil
	}
	// if err != nil { queue.AddRateLimited(key); return }: the error path
	// retries without passing the error on.
	for _, chk := range t.nilChecks {
		if failure := failureSuccessor(chk); failure != nil && p.handledOnEveryPath(failure, write, t, success) {
			return Handled, nil
		}
	}
	if t.logged {
		return Logged, nil
	}
	return Dropped, nil
}

// successBlocks returns the blocks reachable from the err == nil branch of a
// nil check of the error: the code that runs when the write succeeded.
func (p *Package) successBlocks(t *errTaint, write ssa.Instruction) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	for _, chk := range t.nilChecks {
		failure := failureSuccessor(chk)
		if failure == nil {
			continue
		}
		ok := chk.Block().Succs[0]
		if ok == failure {
			ok = chk.Block().Succs[1]
		}
		stack := []*ssa.BasicBlock{ok}
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if out[b] || (write != nil && b == write.Block()) {
				continue
			}
			out[b] = true
			stack = append(stack, b.Succs...)
		}
	}
	return out
}

// failureSuccessor returns the block a nil check of an error branches to
// when the error is not nil.
func failureSuccessor(iff *ssa.If) *ssa.BasicBlock {
	bin, ok := iff.Cond.(*ssa.BinOp)
	if !ok {
		return nil
	}
	switch bin.Op {
	case token.NEQ:
		return iff.Block().Succs[0]
	case token.EQL:
		return iff.Block().Succs[1]
	}
	return nil
}

// errTaint is the forward slice of an error value.
type errTaint struct {
	values         map[ssa.Value]bool
	sinks          []ssa.Instruction // instructions that hand the error on (return, unknown call, store, send)
	handled        bool
	logged         bool
	conflictChecks []*ssa.Call
	nilChecks      []*ssa.If   // if err != nil / if err == nil
	swallowers     []*ssa.Call // calls of helpers that turn a conflict in the error into nil
	otherTests     []*ssa.Call // tests of the error for something else than a conflict (IsNotFound)
}

func (p *Package) taint(err ssa.Value) *errTaint {
	t := &errTaint{values: map[ssa.Value]bool{}}
	work := []ssa.Value{err}
	push := func(v ssa.Value) {
		if v != nil && !t.values[v] {
			t.values[v] = true
			work = append(work, v)
		}
	}
	t.values[err] = true
	for len(work) > 0 && len(t.values) < 512 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch x := r.(type) {
			case *ssa.Return:
				t.sinks = append(t.sinks, x)
				t.handled = true
			case *ssa.Phi:
				push(x)
			case *ssa.MakeInterface:
				push(x)
			case *ssa.ChangeInterface:
				push(x)
			case *ssa.ChangeType:
				push(x)
			case *ssa.TypeAssert:
				push(x)
			case *ssa.Extract:
				push(x)
			case *ssa.BinOp:
				switch x.Op {
				case token.ADD: // string concatenation of err.Error()
					push(x)
				case token.EQL, token.NEQ:
					if isNil(x.X) || isNil(x.Y) {
						for _, rr := range *x.Referrers() {
							if iff, ok := rr.(*ssa.If); ok {
								t.nilChecks = append(t.nilChecks, iff)
							}
						}
					}
				}
			case *ssa.Store:
				if x.Val != v {
					continue
				}
				if isVariable(x.Addr) {
					for _, addr := range p.cellAddrs(root(x.Addr, p)) {
						for _, rr := range *addr.Referrers() {
							if ld, ok := rr.(*ssa.UnOp); ok && ld.Op == token.MUL {
								push(ld)
							}
						}
					}
					continue
				}
				if ia, ok := x.Addr.(*ssa.IndexAddr); ok {
					// An element of a local slice literal ([]error{err}): follow the slice.
					if a, ok := ia.X.(*ssa.Alloc); ok {
						push(a)
						for _, rr := range *a.Referrers() {
							if sl, ok := rr.(*ssa.Slice); ok {
								push(sl)
							}
						}
						continue
					}
				}
				t.sinks = append(t.sinks, x)
				t.handled = true
			case *ssa.Slice:
				push(x)
			case *ssa.Send:
				t.sinks = append(t.sinks, x)
				t.handled = true
			case *ssa.MapUpdate:
				t.sinks = append(t.sinks, x)
				t.handled = true
			case ssa.CallInstruction:
				c := x.Common()
				if p.isConflictCall(c) {
					if call, ok := x.(*ssa.Call); ok {
						t.conflictChecks = append(t.conflictChecks, call)
					}
					continue
				}
				if _, isGo := x.(*ssa.Go); isGo {
					t.sinks = append(t.sinks, x)
					t.handled = true
					continue
				}
				switch model.ErrorUseOf(c) {
				case model.ErrWrap:
					if call, ok := x.(*ssa.Call); ok {
						push(call)
					}
				case model.ErrTest:
					if call, ok := x.(*ssa.Call); ok {
						t.otherTests = append(t.otherTests, call)
					}
				case model.ErrLog:
					t.logged = true
				case model.ErrExit:
					t.sinks = append(t.sinks, x)
					t.handled = true
				default:
					fn := callee(c)
					if call, ok := x.(*ssa.Call); ok && p.swallowsConflict(fn) {
						// return ignoreConflict(err): the helper answers nil
						// for a conflict and hands other errors back.
						t.swallowers = append(t.swallowers, call)
						push(call)
						continue
					}
					if p.local(fn) {
						// A local function that returns what it is given is a wrapper.
						if call, ok := x.(*ssa.Call); ok && p.summary(fn).ReturnsErrorArg {
							push(call)
							continue
						}
						if p.summary(fn).LogsErrorArg {
							t.logged = true
							continue
						}
					} else if obj := funcObject(fn); obj != nil && p.facts != nil {
						if ff := p.facts.FuncFact(obj); ff != nil && ff.LogsErrors {
							t.logged = true
							continue
						}
					}
					if loggerShape(c, v) {
						t.logged = true
						continue
					}
					t.sinks = append(t.sinks, x)
					t.handled = true
				}
			}
		}
	}
	return t
}

// handledFrom reports whether, once a conflict is detected at block from,
// the function still hands an error on: returns an error, requeues, re-adds
// to a work queue, or passes the tainted error to a sink. Blocks of the write
// itself are not entered: past them the error is another attempt's.
func (p *Package) handledFrom(from *ssa.BasicBlock, write ssa.Instruction, t *errTaint, success map[*ssa.BasicBlock]bool) bool {
	sinkBlocks := map[*ssa.BasicBlock]bool{}
	for _, s := range t.sinks {
		sinkBlocks[s.Block()] = true
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || (write != nil && b == write.Block() && b != from) {
			continue
		}
		seen[b] = true
		if sinkBlocks[b] {
			return true
		}
		if ends, handled := p.handsOn(b, success); ends {
			if handled {
				return true
			}
			continue
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// handledOnEveryPath is handledFrom for the failure branch of a nil check
// that does not pass the error on itself: every path from it must end in
// an error, a requeue or a work-queue add, so that an unrelated error
// returned on one later path does not count as handling this one.
func (p *Package) handledOnEveryPath(from *ssa.BasicBlock, write ssa.Instruction, t *errTaint, success map[*ssa.BasicBlock]bool) bool {
	sinkBlocks := map[*ssa.BasicBlock]bool{}
	for _, s := range t.sinks {
		sinkBlocks[s.Block()] = true
	}
	// Past a conflict test of the error only the conflict branch matters:
	// what happens to other errors is not this rule's business.
	// A test for another kind of error (IsNotFound) is false for one.
	onConflict := map[*ssa.BasicBlock]*ssa.BasicBlock{}
	branch := func(test *ssa.Call, whenTrue bool) {
		for _, r := range *test.Referrers() {
			iff, ok := r.(*ssa.If)
			if !ok || iff.Cond != test {
				continue
			}
			if whenTrue {
				onConflict[iff.Block()] = iff.Block().Succs[0]
			} else {
				onConflict[iff.Block()] = iff.Block().Succs[1]
			}
		}
	}
	for _, c := range t.conflictChecks {
		branch(c, true)
	}
	for _, c := range t.otherTests {
		branch(c, false)
	}
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock) bool
	walk = func(b *ssa.BasicBlock) bool {
		if seen[b] {
			return true // a loop back: judged where it was entered
		}
		if write != nil && b == write.Block() && b != from {
			return true // another attempt of the write
		}
		seen[b] = true
		if sinkBlocks[b] {
			return true
		}
		if ends, handled := p.handsOn(b, success); ends {
			return handled
		}
		if len(b.Succs) == 0 {
			return false
		}
		if succ := onConflict[b]; succ != nil {
			return walk(succ)
		}
		for _, s := range b.Succs {
			if !walk(s) {
				return false
			}
		}
		return true
	}
	return walk(from)
}

// handsOn looks at one block of a failure path: ends is true when the path
// ends there (a return, an exit, a requeue, a panic), and handled says
// whether it ends by handing the error on. A path that ends in an error
// makes the caller (the work queue) retry, whatever the error. What the
// code does after a successful write is no answer to a failed one: a
// requeue there (a periodic RequeueAfter) is not about this error.
func (p *Package) handsOn(b *ssa.BasicBlock, success map[*ssa.BasicBlock]bool) (ends, handled bool) {
	for _, instr := range b.Instrs {
		switch x := instr.(type) {
		case *ssa.Return:
			return true, returnsError(x) || (!success[b] && requeues(x))
		case ssa.CallInstruction:
			if model.ErrorUseOf(x.Common()) == model.ErrExit {
				return true, true
			}
			if !success[b] && (model.IsWorkqueueAdd(x.Common()) || p.rewrites(x.Common())) {
				return true, true
			}
		case *ssa.Panic:
			return true, true
		}
	}
	return false, false
}

// returnsError reports whether a return hands back an error that may be
// non-nil.
func returnsError(ret *ssa.Return) bool {
	for _, r := range ret.Results {
		if model.IsError(r.Type()) && !isNil(r) {
			return true
		}
	}
	return false
}

// requeues reports whether a return of a reconciler asks for a requeue:
// a reconcile.Result other than the zero value.
func requeues(ret *ssa.Return) bool {
	for _, r := range ret.Results {
		if !model.IsReconcileResult(r.Type()) {
			continue
		}
		if c, ok := r.(*ssa.Const); ok && c.Value == nil {
			continue // reconcile.Result{}
		}
		if isZeroLiteral(r) {
			continue
		}
		return true
	}
	return false
}

// isZeroLiteral reports whether v is a load of a composite literal none of
// whose fields is set.
func isZeroLiteral(v ssa.Value) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	a, ok := ld.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range *a.Referrers() {
		switch r.(type) {
		case *ssa.FieldAddr, *ssa.Store:
			return false
		}
	}
	return true
}

// isErrorResult reports whether the last result of fn is an error.
func errorResult(sig *types.Signature) int {
	res := sig.Results()
	if res.Len() > 0 && model.IsError(res.At(res.Len()-1).Type()) {
		return res.Len() - 1
	}
	return -1
}

// loggerShape reports whether a call looks like a logging or printing
// helper given the error among its variadic ...any arguments: a function
// such as Errorf(format string, args ...any) that returns nothing cannot hand
// the error on.
func loggerShape(c *ssa.CallCommon, arg ssa.Value) bool {
	sig := c.Signature()
	if !sig.Variadic() || sig.Results().Len() != 0 || len(c.Args) == 0 || c.Args[len(c.Args)-1] != arg {
		return false
	}
	sl, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
	if !ok {
		return false
	}
	iface, ok := sl.Elem().Underlying().(*types.Interface)
	return ok && iface.Empty()
}

// rewrites reports whether a call redoes a write: a function of the
// package that writes objects itself, such as a re-read-and-retry helper
// called when a conflict is detected (a helper of another package that
// returns the error is followed by the error's taint instead).
func (p *Package) rewrites(c *ssa.CallCommon) bool {
	fn := callee(c)
	return p.local(fn) && p.summary(fn).Writer
}

// swallowsConflict reports whether a function given an error returns nil
// for a conflict and hands other errors back (func ignoreConflict(err
// error) error), from its summary or, in another package, its fact.
func (p *Package) swallowsConflict(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	if p.local(fn) {
		return p.summary(fn).SwallowsConflictArg
	}
	if obj := funcObject(fn); obj != nil && p.facts != nil {
		if ff := p.facts.FuncFact(obj); ff != nil {
			return ff.SwallowsConflict
		}
	}
	return false
}

// swallowsConflictArg reports whether an error parameter, tested for a
// conflict, leads to a path that hands no error on.
func (p *Package) swallowsConflictArg(t *errTaint) bool {
	if len(t.swallowers) > 0 {
		return true
	}
	success := p.successBlocks(t, nil)
	for _, c := range t.conflictChecks {
		if succ := conflictSuccessor(c); succ != nil && !p.handledFrom(succ, nil, t, success) {
			return true
		}
	}
	return false
}
