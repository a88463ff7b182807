package flow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
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
		if p.failsAfter(write, nil, nil) || p.callersFailAfter(write) || p.failsOnReturn(write) {
			return Handled, nil // see below
		}
		return Dropped, nil
	}
	t := p.taint(err)
	success := p.successBlocks(t, write)
	failed := p.failureBlocks(t)
	// What success returns, for a conflict branch or a failure branch that
	// answers something else.
	var distinct func(*ssa.Return) bool
	if len(t.conflictChecks) > 0 || len(t.nilChecks) > 0 {
		distinct = p.distinctFromSuccess(write, t, success)
	}
	// A conflict branch that goes on to a return asking to come back soon
	// is answered by it, also where success returns the same requeue
	// (if IsConflict(err) { log... }; return ctrl.Result{RequeueAfter:
	// 2 * time.Second}, nil): the next pass reads and writes again.
	onConflict := soonRequeue
	if distinct != nil {
		onConflict = func(ret *ssa.Return) bool { return soonRequeue(ret) || distinct(ret) }
	}
	for _, c := range t.conflictChecks {
		succ := conflictSuccessor(c)
		if succ == nil || c.Parent() != write.Parent() && (p.deferredAside(c.Parent()) || p.keepsNamedError(c, succ)) {
			continue
		}
		if !p.handledFrom(succ, write, t, success, failed, onConflict) {
			return p.swallowedUnlessCallersFail(write, c)
		}
	}
	if len(t.swallowers) > 0 {
		return p.swallowedUnlessCallersFail(write, t.swallowers[0])
	}
	if t.handled {
		return Handled, nil
	}
	// if err != nil { queue.AddRateLimited(key); return }: the error path
	// retries without passing the error on. So does one that returns what
	// success does not (if err != nil { log...; return false } ... return
	// true, in an election between replicas: the caller is told).
	handsOn := literalRequeue
	if distinct != nil {
		handsOn = func(ret *ssa.Return) bool { return literalRequeue(ret) || distinct(ret) }
	}
	for _, chk := range t.nilChecks {
		if failure := failureSuccessor(chk); failure != nil && p.handledOnEveryPath(failure, write, t, success, failed, handsOn) {
			return Handled, nil
		}
	}
	// _ = r.Status().Update(ctx, obj); return ctrl.Result{}, err: on an
	// error path, the function fails (or requeues) anyway, whatever the
	// error, and the next attempt writes again. So in a helper whose every
	// caller in the package then fails.
	if p.failsAfter(write, success, failed) || p.callersFailAfter(write) || p.failsOnReturn(write) {
		return Handled, nil
	}
	if t.logged {
		return Logged, nil
	}
	return Dropped, nil
}

// swallowedUnlessCallersFail is the fate of a write whose conflict check
// swallows it: handled all the same when every call of its function is
// followed by a failure or a requeue of the caller (callersFailAfter),
// whatever the helper answers.
func (p *Package) swallowedUnlessCallersFail(write ssa.Instruction, check *ssa.Call) (Fate, *ssa.Call) {
	if p.callersFailAfter(write) {
		return Handled, nil
	}
	return Swallowed, check
}

// failsAfter reports whether every path from a write call to the end of its
// function returns a non-nil error or asks for a requeue (a requeue after a
// successful write, in success, excepted): a conflict of the write then
// reaches a retry, whichever error is returned. A call of a writing function
// of the package counts as a retry only in failed, the blocks that run only
// when the write failed. A deferred write runs after the return, and a
// goroutine's on its own: neither is judged this way.
func (p *Package) failsAfter(write ssa.Instruction, success, failed map[*ssa.BasicBlock]bool) bool {
	if write == nil || write.Block() == nil {
		return false
	}
	switch write.(type) {
	case *ssa.Defer, *ssa.Go:
		return false
	}
	b := write.Block()
	rest := b.Instrs
	for i, instr := range b.Instrs {
		if instr == write {
			rest = b.Instrs[i+1:]
			break
		}
	}
	// A later Update of the same object, not read again, whose error is
	// handed on: after a conflict it fails with 409 too (staleRewrites).
	rewritesStale := p.staleRewrites(write)
	if rewritesStale != nil && rewritesStale(rest) {
		return true
	}
	if ends, handled := p.instrsHandOn(rest, success[b], false, literalRequeue); ends {
		return handled
	}
	seen := map[*ssa.BasicBlock]bool{b: true}
	var walk func(b *ssa.BasicBlock) bool
	walk = func(b *ssa.BasicBlock) bool {
		if seen[b] {
			return true // a loop back: judged where it was entered
		}
		seen[b] = true
		if rewritesStale != nil && rewritesStale(b.Instrs) {
			return true
		}
		if ends, handled := p.instrsHandOn(b.Instrs, success[b], failed[b], literalRequeue); ends {
			return handled
		}
		if len(b.Succs) == 0 {
			return false
		}
		for _, s := range p.feasibleSuccs(b) {
			if !walk(s) {
				return false
			}
		}
		return true
	}
	for _, s := range p.feasibleSuccs(b) {
		if !walk(s) {
			return false
		}
	}
	return len(b.Succs) > 0
}

// feasibleSuccs returns the successors of a block, without the failure
// branch of a nil check of an error assumed nil (assumeNil).
func (p *Package) feasibleSuccs(b *ssa.BasicBlock) []*ssa.BasicBlock {
	if p.assumeNil == nil || len(b.Instrs) == 0 {
		return b.Succs
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || !slices.Contains(p.assumeNil.nilChecks, iff) {
		return b.Succs
	}
	failure := failureSuccessor(iff)
	for _, s := range b.Succs {
		if s != failure {
			return []*ssa.BasicBlock{s}
		}
	}
	return b.Succs
}

// callersFailAfter reports whether a write in an unexported function of the
// package is followed, at every call of that function in the package, by a
// failure or a requeue of the caller, or by a return of a caller that is
// itself such a function every call of which is (a helper of a helper,
// maxCallerDepth deep). A function that escapes as a value may have callers
// the package does not show: it is not judged this way.
func (p *Package) callersFailAfter(write ssa.Instruction) bool {
	return p.callersFailAfterDepth(write, 0)
}

const maxCallerDepth = 3

func (p *Package) callersFailAfterDepth(write ssa.Instruction, depth int) bool {
	if write == nil || depth >= maxCallerDepth {
		return false
	}
	fn := write.Parent()
	if fn == nil || fn.Parent() != nil {
		return false
	}
	if obj := fn.Object(); obj == nil || obj.Exported() {
		return false
	}
	if p.escapes(fn) {
		return false
	}
	calls := p.callsOf[fn]
	if len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		switch c.(type) {
		case *ssa.Go, *ssa.Defer:
			return false // its failure reaches no caller
		}
		if c.Parent() == fn || !(p.failsAfterCall(c) || p.failsOnReturn(c) || !p.inOpenLoop(c) && p.callersFailAfterDepth(c, depth+1)) {
			return false
		}
	}
	return true
}

// LostToCallers reports whether what becomes of a write's error is for
// callers in other packages to decide: the write is in an exported
// function (or an exported method of an exported type) that its package
// does not use as a value and calls only where the caller then fails or
// requeues, or from such a function given the object, and the object it
// writes is that function's parameter (a helper that sets a condition and writes the
// status of the object it is given, for the controllers of other
// packages). So is a write in an unexported function every call of which
// in the package is such a call, and one in a method with an exported name
// that the package calls through its interfaces only from such functions
// (the steps of a chain of handlers that an exported Chain.Serve runs:
// dispatchedLost hands their writes to its summary). Such a write is not
// reported in its package; its fact says the error is lost (ErrLost), and
// a caller that then neither fails nor requeues is reported at the call.
func (p *Package) LostToCallers(write ssa.Instruction, obj ssa.Value) bool {
	// Not under the assumptions of a judgement in progress (LostFate's
	// onlyNonNil, failsAfterCall's assumeNil): the callers are judged as
	// they are.
	assumeNil, onlyNonNil := p.assumeNil, p.onlyNonNil
	p.assumeNil, p.onlyNonNil = nil, false
	defer func() { p.assumeNil, p.onlyNonNil = assumeNil, onlyNonNil }()
	return p.lostToCallers(write, obj, 0)
}

func (p *Package) lostToCallers(write ssa.Instruction, obj ssa.Value, depth int) bool {
	if write == nil || obj == nil || depth >= maxCallerDepth {
		return false
	}
	fn := write.Parent()
	if fn == nil || fn.Parent() != nil || fn.Object() == nil {
		return false
	}
	exported := fn.Object().Exported()
	if recv := fn.Signature.Recv(); recv != nil && exported {
		t := recv.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || !named.Obj().Exported() {
			return false
		}
	}
	// Its calls in the package: the static ones, and for a method with an
	// exported name those through the package's interfaces (a chain of
	// handlers that runs each step's Serve); for a method with an
	// unexported name these are among its calls already.
	calls := p.callsOf[fn]
	if exported && dispatchable(fn) {
		// (escapes counts a call through any interface of a method of
		// its name; dispatchCalls are those that can reach it.)
		if p.usedAsValue(fn) {
			return false
		}
		for _, c := range p.dispatchCalls(fn) {
			if c.Parent() != fn {
				// (One in fn itself is a composite's call of its parts.)
				calls = append(calls[:len(calls):len(calls)], c)
			}
		}
	} else if p.escapes(fn) {
		return false
	}
	if !exported && len(calls) == 0 {
		return false // used nowhere: no caller decides
	}
	aliases := p.objectAliases(obj)
	var param *ssa.Parameter
	for i, prm := range fn.Params {
		if i == 0 && fn.Signature.Recv() != nil {
			continue
		}
		if slices.Contains(aliases, ssa.Value(prm)) {
			param = prm
			break
		}
	}
	if param == nil {
		return false
	}
	// Its calls in the package, if any, fail or requeue after it, or are
	// in such a function themselves, given the object they pass on (an
	// exported handler method that wraps it for the controllers, or defers
	// it: the write runs when that function returns to its callers).
	for _, c := range calls {
		if c.Parent() == fn {
			return false
		}
		switch c.(type) {
		case *ssa.Go:
			return false
		case *ssa.Defer:
			if arg := argFor(c.Common(), param); arg == nil || !p.lostToCallers(c, arg, depth+1) {
				return false
			}
			continue
		}
		if p.failsAfterCall(c) || p.failsOnReturn(c) {
			continue
		}
		if arg := argFor(c.Common(), param); arg != nil && p.lostToCallers(c, arg, depth+1) {
			continue
		}
		return false
	}
	return true
}

// LostFate is ErrorFate for a write: for a call of a helper of another
// package whose fact says it loses the write's error (ErrLost), what the
// caller does after the call, as for a write whose error is dropped, where
// a returned error counts as a failure only where it is shown not nil
// (shownNonNil).
func (p *Package) LostFate(w *WriteSite) (Fate, *ssa.Call) {
	if w.Via != nil && w.ViaWrite.ErrLost {
		prev := p.onlyNonNil
		p.onlyNonNil = true
		defer func() { p.onlyNonNil = prev }()
		return p.ErrorFate(nil, w.Call)
	}
	return p.ErrorFate(w.Err, w.Call)
}

// CallerGoesOn returns a call, in the package, of the unexported function a
// write is in after which the caller neither fails nor requeues: where a
// dropped error of the write is lost. nil when there is none to name.
func (p *Package) CallerGoesOn(write ssa.Instruction) ssa.CallInstruction {
	if write == nil || write.Parent() == nil || write.Parent().Parent() != nil {
		return nil
	}
	fn := write.Parent()
	if obj := fn.Object(); obj == nil || obj.Exported() {
		return nil
	}
	for _, c := range p.callsOf[fn] {
		if _, ok := c.(*ssa.Call); ok && c.Parent() != fn && !p.failsAfterCall(c) && !p.failsOnReturn(c) {
			return c
		}
	}
	return nil
}

// mayRunAfter reports whether instr may run after x in one run of x's
// function: a later instruction of the function, or one of a closure of it
// that the function calls, directly or as an argument, after x (a closure
// it defers, starts as a goroutine, stores or converts may run any time).
func (p *Package) mayRunAfter(x, instr ssa.Instruction) bool {
	return p.runsAfter(x, instr, false)
}

// sentAfter is mayRunAfter for a change x and a write instr that may be in a
// deferred closure: the closure runs when the function returns, after x only
// on a path through its defer (before or after x), not on a path that
// returns before the defer.
func (p *Package) sentAfter(x, instr ssa.Instruction) bool {
	return p.runsAfter(x, instr, true)
}

func (p *Package) runsAfter(x, instr ssa.Instruction, deferPaths bool) bool {
	if instr.Parent() == x.Parent() {
		return p.mayReach(x, instr)
	}
	mc, ok := p.anchor(instr, x.Parent()).(*ssa.MakeClosure)
	if !ok {
		return true
	}
	for _, r := range ssax.Referrers(mc) {
		switch r.(type) {
		case *ssa.Call:
			if p.mayReach(x, r) {
				return true
			}
		case *ssa.Defer:
			if !deferPaths || p.mayReach(x, r) || p.mayReach(r, x) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// deferredAside reports whether fn is a closure its function defers and
// that stores into none of the variables it captures (asked of a closure
// other than the write's own), so that it cannot set the function's named
// results: a conflict test there (defer func() { if
// apierrors.IsConflict(err) { _ = m.resync() } }()) changes nothing the
// function returns, and the error's fate is decided by the function itself.
func (p *Package) deferredAside(fn *ssa.Function) bool {
	if !p.deferred(fn) {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if _, ok := strip(st.Addr).(*ssa.FreeVar); ok {
					return false
				}
			}
		}
	}
	return true
}

// keepsNamedError reports whether a conflict test in a deferred closure
// tests a named error result of its function, and its conflict branch
// leaves that result as it is (defer func() { if IsConflict(err) { retry
// = short } }()): the function returns the conflict, whatever else the
// branch sets.
func (p *Package) keepsNamedError(c *ssa.Call, succ *ssa.BasicBlock) bool {
	fn := c.Parent()
	if !p.deferred(fn) || len(c.Call.Args) != 1 {
		return false
	}
	ld, ok := strip(c.Call.Args[0]).(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	fv, ok := ld.X.(*ssa.FreeVar)
	if !ok {
		return false
	}
	cell, ok := root(fv, p).(*ssa.Alloc)
	if !ok || !isNamedResult(cell) {
		return false
	}
	return p.leavesCell(fv, cell, succ)
}

// leavesCell reports whether no way on from block from sets a cell, the
// named result of the function a closure is in, captured as fv.
func (p *Package) leavesCell(fv *ssa.FreeVar, cell *ssa.Alloc, from *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && root(strip(st.Addr), p) == ssa.Value(cell) {
				return false
			}
			if ci, ok := instr.(ssa.CallInstruction); ok && slices.Contains(ci.Common().Args, ssa.Value(fv)) {
				return false // the cell handed to a call (setErr(&err)) may be set there
			}
		}
		stack = append(stack, b.Succs...)
	}
	return true
}

// nilTest returns, for a condition that compares a value with nil (== or
// !=), the comparison and that value; nil otherwise.
func nilTest(cond ssa.Value) (*ssa.BinOp, ssa.Value) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || !isEquality(bin.Op) {
		return nil, nil
	}
	switch {
	case isNil(bin.Y):
		return bin, bin.X
	case isNil(bin.X):
		return bin, bin.Y
	}
	return nil, nil
}

// failsOnReturn reports whether instr is in a closure its function defers,
// on a branch taken only when the function's named error result is not nil,
// and the closure does not set that result after it:
//
//	defer func() {
//		if returnErr == nil { return }
//		o.setErrorCondition(cd, returnErr) // drops its write's error
//	}()
//
// The function then returns that error, and the write is redone by what
// retries the function's failure.
func (p *Package) failsOnReturn(instr ssa.Instruction) bool {
	fn := instr.Parent()
	if fn == nil || fn.Parent() == nil || !p.deferred(fn) {
		return false
	}
	for _, o := range knownOutcomes(instr.Block()) {
		bin, x := nilTest(o.cond)
		if bin == nil {
			continue
		}
		ld, ok := x.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || !model.IsError(ld.Type()) {
			continue
		}
		fv, ok := ld.X.(*ssa.FreeVar)
		if !ok {
			continue
		}
		cell, ok := root(fv, p).(*ssa.Alloc)
		if !ok || !isNamedResult(cell) || cell.Parent() != fn.Parent() {
			continue
		}
		if nonNil := (bin.Op == token.NEQ) == o.val; nonNil && p.leavesCell(fv, cell, instr.Block()) {
			return true
		}
	}
	return false
}

// deferred reports whether fn is a closure its function defers.
func (p *Package) deferred(fn *ssa.Function) bool {
	mc := p.made[fn]
	if mc == nil {
		return false
	}
	for _, r := range *mc.Referrers() {
		if d, ok := r.(*ssa.Defer); ok && d.Call.Value == mc {
			return true
		}
	}
	return false
}

// namedResultCell reports whether a variable's cell is a named result of its
// function, or a cell the analysis cannot place (then, conservatively, yes).
func namedResultCell(v ssa.Value) bool {
	a, ok := v.(*ssa.Alloc)
	return !ok || isNamedResult(a)
}

// inOpenLoop reports whether a call runs in a loop of its function that
// does not walk a collection (an event loop, for { select { ... } }): its
// function returns only when the loop ends, at shutdown, which retries
// nothing the call failed to write.
func (p *Package) inOpenLoop(c ssa.CallInstruction) bool {
	for _, l := range p.Loops(c.Parent()) {
		if l.Blocks[c.Block()] && !l.Iterates {
			return true
		}
	}
	return false
}

// failsAfterCall is failsAfter for a call of a function whose write failed
// on a path where the function itself then did not fail: the call's error
// result is nil there. A return of it is no failure, and of a nil check of
// it only the nil branch is followed.
func (p *Package) failsAfterCall(c ssa.CallInstruction) bool {
	if errv := errorValue(c); errv != nil {
		prev := p.assumeNil
		p.assumeNil = p.taint(errv)
		defer func() { p.assumeNil = prev }()
	}
	prevResult := p.judgedResult
	p.judgedResult = resultValue(c)
	defer func() { p.judgedResult = prevResult }()
	return p.failsAfter(c, nil, nil)
}

// resultHandedOn reports whether v is the reconcile.Result of the call being
// judged (judgedResult), or what a reporting helper (of this package or
// another) gives back of it.
func (p *Package) resultHandedOn(v ssa.Value) bool {
	for depth := 0; p.judgedResult != nil && depth < maxSourceDepth; depth++ {
		if v == p.judgedResult {
			return true
		}
		x, ok := strip(v).(*ssa.Extract)
		if !ok {
			return false
		}
		c, ok := x.Tuple.(*ssa.Call)
		if !ok {
			return false
		}
		k := p.handsOnResultOf(c.Common())
		if k < 0 || k >= len(c.Call.Args) {
			return false
		}
		v = returned(c.Call.Args[k])
	}
	return false
}

// handsOnResultOf is the parameter the callee of c gives back as its
// reconcile.Result, or -1.
func (p *Package) handsOnResultOf(c *ssa.CallCommon) int {
	fn := c.StaticCallee()
	if fn == nil {
		return -1
	}
	if p.local(fn) {
		return p.summary(fn).HandsOnResult
	}
	if obj := calleeObject(c); obj != nil && p.facts != nil {
		if ff := p.facts.FuncFact(obj); ff != nil && len(ff.HandsOnResult) == 1 {
			return ff.HandsOnResult[0]
		}
	}
	return -1
}

// resultValue returns the reconcile.Result result of a call, or nil.
func resultValue(c ssa.CallInstruction) ssa.Value {
	call, ok := c.(*ssa.Call)
	if !ok {
		return nil
	}
	for _, r := range ssax.Referrers(call) {
		if x, ok := r.(*ssa.Extract); ok && model.IsReconcileResult(x.Type()) {
			return x
		}
	}
	return nil
}

// errorValue returns the error result of a call, or nil.
func errorValue(c ssa.CallInstruction) ssa.Value {
	call, ok := c.(*ssa.Call)
	if !ok {
		return nil
	}
	res := call.Common().Signature().Results()
	i := errorResult(call.Common().Signature())
	if i < 0 {
		return nil
	}
	if res.Len() == 1 {
		return call
	}
	for _, r := range ssax.Referrers(call) {
		if x, ok := r.(*ssa.Extract); ok && x.Index == i {
			return x
		}
	}
	return nil
}

// escapes reports whether a function may be called other than by the static
// calls of the package: it is used as a value (stored, passed, returned, a
// method value or expression), or is a method called through an interface.
func (p *Package) escapes(fn *ssa.Function) bool {
	if p.escaping == nil {
		p.escaping = map[*ssa.Function]bool{}
		p.invoked = map[string]bool{}
		p.escapingObjs = map[types.Object]bool{}
		p.ifaceValues = map[string]bool{}
		var ops []*ssa.Value
		funcs := p.Funcs
		if init, ok := p.Pkg.Members["init"].(*ssa.Function); ok && !slices.Contains(funcs, init) {
			// The package's initializer: package variables may hold
			// functions and method values.
			funcs = append(funcs[:len(funcs):len(funcs)], init)
		}
		for _, f := range funcs {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					ops = instr.Operands(ops[:0])
					if c, ok := instr.(ssa.CallInstruction); ok {
						if c.Common().IsInvoke() {
							p.invoked[c.Common().Method.Name()] = true
						} else {
							ops = ops[1:] // the callee of a static call is no use as a value
						}
					}
					for _, op := range ops {
						if op == nil {
							continue
						}
						if g, ok := (*op).(*ssa.Function); ok {
							p.escaping[g] = true
							if obj := g.Object(); obj != nil {
								p.escapingObjs[obj] = true
								if m, ok := obj.(*types.Func); ok && m.Signature().Recv() != nil && types.IsInterface(m.Signature().Recv().Type()) {
									p.ifaceValues[m.Name()] = true
								}
							}
						}
					}
				}
			}
		}
	}
	if p.escaping[fn] {
		return true
	}
	if obj := fn.Object(); obj != nil && p.escapingObjs[obj] {
		return true // a method value or expression: a wrapper of the method
	}
	if fn.Signature.Recv() == nil {
		return false
	}
	if dispatchable(fn) && !fn.Object().Exported() {
		// Its calls through interfaces are among its calls (addInvokes);
		// a value of an interface's method of its name may reach it too.
		return p.ifaceValues[fn.Name()]
	}
	return p.invoked[fn.Name()]
}

// usedAsValue reports whether a method with an exported name that the
// package calls through its interfaces is also used as a value: a method
// value or expression, or a value of an interface's method of its name.
func (p *Package) usedAsValue(fn *ssa.Function) bool {
	p.escapes(fn) // builds the maps
	if p.escaping[fn] {
		return true
	}
	if obj := fn.Object(); obj != nil && p.escapingObjs[obj] {
		return true
	}
	return p.ifaceValues[fn.Name()]
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

// failureBlocks returns the blocks that run only when the error failed a
// check: those dominated by the err != nil branch of a nil check, or by the
// true branch of a conflict test, entered from the check alone.
func (p *Package) failureBlocks(t *errTaint) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	var add func(b *ssa.BasicBlock)
	add = func(b *ssa.BasicBlock) {
		if out[b] {
			return
		}
		out[b] = true
		for _, d := range b.Dominees() {
			add(d)
		}
	}
	// A branch target with one predecessor, the check, runs only on its
	// outcome.
	from := func(b *ssa.BasicBlock) {
		if b != nil && len(b.Preds) == 1 {
			add(b)
		}
	}
	for _, chk := range t.nilChecks {
		from(failureSuccessor(chk))
	}
	for _, c := range t.conflictChecks {
		from(conflictSuccessor(c))
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
						for _, rr := range ssax.Referrers(x) {
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
					// A deferred closure runs after its function has set
					// what it returns: what it stores in a captured
					// variable that is not a named result, only the closure
					// itself can read (defer func() { if err = w(); err !=
					// nil { log(err) } }() drops the error).
					// A load of the variable that runs only before the
					// store (a conflict test of an earlier write's error
					// in the same variable) does not read this error.
					own := p.deferred(x.Parent()) && !namedResultCell(root(x.Addr, p))
					for _, addr := range p.cellAddrs(root(x.Addr, p)) {
						for _, rr := range ssax.Referrers(addr) {
							if ld, ok := rr.(*ssa.UnOp); ok && ld.Op == token.MUL && (!own || ld.Parent() == x.Parent() || p.deferred(ld.Parent())) && p.mayRunAfter(x, ld) {
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
						for _, rr := range ssax.Referrers(a) {
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
						ff := p.facts.FuncFact(obj)
						if ff != nil && ff.LogsErrors {
							t.logged = true
							continue
						}
						// A reporting helper of another package that
						// hands back the error it is given.
						if call, ok := x.(*ssa.Call); ok && ff != nil && ff.HandsOnError {
							push(call)
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
//
// distinct, when set, tells a return that gives the caller another answer
// than success does (if IsConflict(err) { return false, nil } where success
// returns true): the conflict is handed on as that answer.
func (p *Package) handledFrom(from *ssa.BasicBlock, write ssa.Instruction, t *errTaint, success, failed map[*ssa.BasicBlock]bool, distinct func(*ssa.Return) bool) bool {
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
		// A block only the conflict branch reaches (from has no other
		// way in, and dominates it) runs for a conflict: a requeue there
		// answers it, also when a path from a successful write reaches
		// the conflict test (err = updateErr ... if err != nil { if
		// IsConflict(err) { return StatusConflict } }).
		after := success[b] && !(len(from.Preds) == 1 && from.Dominates(b))
		if ends, handled := p.instrsHandOn(b.Instrs, after, failed[b], distinct); ends {
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
// an error, a requeue or a work-queue add, or a return handsOn accepts (a
// reconcile result literal that requeues, a result success never returns),
// so that an unrelated error returned on one later path does not count as
// handling this one.
func (p *Package) handledOnEveryPath(from *ssa.BasicBlock, write ssa.Instruction, t *errTaint, success, failed map[*ssa.BasicBlock]bool, handsOn func(*ssa.Return) bool) bool {
	sinkBlocks := map[*ssa.BasicBlock]bool{}
	for _, s := range t.sinks {
		sinkBlocks[s.Block()] = true
	}
	// Past a conflict test of the error only the conflict branch matters:
	// what happens to other errors is not this rule's business.
	// A test for another kind of error (IsNotFound) is false for one.
	onConflict := map[*ssa.BasicBlock]*ssa.BasicBlock{}
	branch := func(test *ssa.Call, whenTrue bool) {
		for _, r := range ssax.Referrers(test) {
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
	// The walk follows each path with the boolean flags it has set:
	// if err != nil { failed = true; log(err) } ... if failed { return err }
	// hands the error on through the flag. A flag is a phi that is true on
	// the path, because the edge taken into its block brings true or a
	// flag already true. A branch on a flag takes only its true side.
	//
	// A flag or count the function returns, given its value on the
	// failure path (errCount++ ... return errCount; ok = false ... return
	// ok), tells the caller of the failure (told).
	type state struct {
		b     *ssa.BasicBlock
		flags string // the flags set, in order of their names, then those told
	}
	seen := map[state]bool{}
	conds := p.condPhis(from.Parent())
	rewritesStale := p.staleRewrites(write)
	// A boolean's value on the failure path.
	toldVal := map[*ssa.Phi]constant.Value{}
	const maxStates = 4096 // beyond it, the error is taken to be lost
	var walk func(b *ssa.BasicBlock, flags, told []*ssa.Phi) bool
	walk = func(b *ssa.BasicBlock, flags, told []*ssa.Phi) bool {
		st := state{b, flagsKey(flags) + "| " + flagsKey(told)}
		if seen[st] {
			return true // a loop back: judged where it was entered
		}
		if len(seen) >= maxStates {
			return false
		}
		if write != nil && b == write.Block() && b != from {
			return true // another attempt of the write
		}
		seen[st] = true
		if sinkBlocks[b] {
			return true
		}
		if rewritesStale != nil && rewritesStale(b.Instrs) {
			return true
		}
		tells := func(ret *ssa.Return) bool {
			return handsOn != nil && handsOn(ret) || returnsFlag(ret, told)
		}
		if ends, handled := p.instrsHandOn(b.Instrs, success[b], failed[b], tells); ends {
			return handled
		}
		if len(b.Succs) == 0 {
			return false
		}
		next := func(s *ssa.BasicBlock) bool {
			return walk(s, flagsInto(b, s, flags, conds), toldInto(from, b, s, told, conds, toldVal))
		}
		if succ := onConflict[b]; succ != nil {
			return next(succ)
		}
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if requeued, ok := requeueTest(iff.Cond); ok {
				// if res.RequeueAfter == 0 { res.RequeueAfter = d }:
				// the other branch already asks for a requeue.
				return next(b.Succs[1-requeued])
			}
			if phi, ok := iff.Cond.(*ssa.Phi); ok && slices.Contains(flags, phi) {
				return next(b.Succs[0])
			}
			if phi, nonEmpty := lenTest(iff.Cond); phi != nil && slices.Contains(flags, phi) {
				if nonEmpty {
					return next(b.Succs[0])
				}
				return next(b.Succs[1])
			}
		}
		for _, s := range b.Succs {
			if !next(s) {
				return false
			}
		}
		return true
	}
	return walk(from, nil, nil)
}

// toldInto returns the returned flags and counts whose value, on entering
// block to from block from, was given on the failure path that starts at
// failure: those of its phis that the function returns (condPhis) whose
// edge from from, a block failure dominates, brings a boolean constant, a
// count grown (errCount++) or an append, or whose edge brings one told
// before; and those told before that are not phis of to. A constant that
// an edge from a block off the failure path brings too (changed = true
// before the write) tells nothing.
func toldInto(failure, from, to *ssa.BasicBlock, told []*ssa.Phi, conds map[*ssa.Phi]bool, toldVal map[*ssa.Phi]constant.Value) []*ssa.Phi {
	pred, out := carriedInto(from, to, told)
	for _, phi := range leadingPhis(to) {
		if pred < 0 || !conds[phi] || !returnedPhi(phi) {
			continue
		}
		switch e := phi.Edges[pred].(type) {
		case *ssa.Const:
			if e.Value == nil || e.Value.Kind() != constant.Bool {
				continue
			}
			if failure.Dominates(from) && !otherEdgeBrings(phi, e, failure) {
				toldVal[phi] = e.Value
				out = append(out, phi)
			} else if toldWith(told, toldVal, e.Value) {
				out = append(out, phi) // (ok = false again, on another failure)
			}
		case *ssa.BinOp:
			x, _ := e.X.(*ssa.Phi)
			if c, ok := e.Y.(*ssa.Const); ok && e.Op == token.ADD && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) > 0 && (failure.Dominates(from) || x != nil && slices.Contains(told, x)) {
				out = append(out, phi) // (a count grows on)
			}
		case *ssa.Call:
			if appends(e) && failure.Dominates(from) {
				out = append(out, phi)
			}
		case *ssa.Phi:
			if slices.Contains(told, e) {
				if v := toldVal[e]; v != nil {
					toldVal[phi] = v
				}
				out = append(out, phi)
			}
		}
	}
	slices.SortFunc(out, func(a, b *ssa.Phi) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// toldWith reports whether a boolean told on the path has the value v on
// the failure path: v set again elsewhere keeps the failure told.
func toldWith(told []*ssa.Phi, toldVal map[*ssa.Phi]constant.Value, v constant.Value) bool {
	for _, t := range told {
		if tv := toldVal[t]; tv != nil && tv.Kind() == v.Kind() && constant.Compare(tv, token.EQL, v) {
			return true
		}
	}
	return false
}

// otherEdgeBrings reports whether an edge of phi from a block that failure
// does not dominate brings the constant c too.
func otherEdgeBrings(phi *ssa.Phi, c *ssa.Const, failure *ssa.BasicBlock) bool {
	for i, e := range phi.Edges {
		if failure.Dominates(phi.Block().Preds[i]) {
			continue
		}
		if sameOperand(e, c) {
			return true
		}
	}
	return false
}

// returnedPhi reports whether a phi is a result of a return of its
// function, or an edge of such a phi, through phis (a flag set in a loop
// and returned after another).
func returnedPhi(phi *ssa.Phi) bool {
	seen := map[*ssa.Phi]bool{}
	var walk func(v *ssa.Phi) bool
	walk = func(v *ssa.Phi) bool {
		if seen[v] || len(seen) > maxAliases {
			return false
		}
		seen[v] = true
		for _, r := range ssax.Referrers(v) {
			switch r := r.(type) {
			case *ssa.Return:
				return true
			case *ssa.Phi:
				if walk(r) {
					return true
				}
			}
		}
		return false
	}
	return walk(phi)
}

// returnsFlag reports whether a return gives, as a result other than an
// error, a flag or count given its value on the failure path (told), or
// false where another return of the function gives true: the caller is
// told of the failure.
func returnsFlag(ret *ssa.Return, told []*ssa.Phi) bool {
	for i, r := range ret.Results {
		if model.IsError(r.Type()) {
			continue
		}
		if phi, ok := r.(*ssa.Phi); ok && slices.Contains(told, phi) {
			return true
		}
		if c, ok := r.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value) && returnsTrue(ret.Parent(), i) {
			return true
		}
	}
	return false
}

// returnsTrue reports whether some return of fn gives true as result i.
func returnsTrue(fn *ssa.Function, i int) bool {
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || i >= len(ret.Results) {
			continue
		}
		if c, ok := ret.Results[i].(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value) {
			return true
		}
	}
	return false
}

// flagsInto returns the flags set on entering block to from block from:
// those of its flag phis (condPhis) whose edge from from brings true, an
// append of an element, or a flag set before, and the flags set before
// that are not phis of to.
func flagsInto(from, to *ssa.BasicBlock, flags []*ssa.Phi, conds map[*ssa.Phi]bool) []*ssa.Phi {
	pred, out := carriedInto(from, to, flags)
	for _, phi := range leadingPhis(to) {
		if pred < 0 || !conds[phi] {
			continue
		}
		switch e := phi.Edges[pred].(type) {
		case *ssa.Call:
			if appends(e) {
				out = append(out, phi) // failed = append(failed, name)
			}
		case *ssa.Const:
			if e.Value != nil && e.Value.Kind() == constant.Bool && constant.BoolVal(e.Value) {
				out = append(out, phi)
			}
		case *ssa.BinOp:
			// errCount++ (a counter that starts at 0 and only grows).
			if c, ok := e.Y.(*ssa.Const); ok && e.Op == token.ADD && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) > 0 {
				out = append(out, phi)
			}
		case *ssa.Phi:
			if slices.Contains(flags, e) {
				out = append(out, phi)
			}
		}
	}
	slices.SortFunc(out, func(a, b *ssa.Phi) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// carriedInto returns the index of the edge into block to from block from
// (-1 if none), and the phis of set that are not phis of to: those keep
// their value on entering to.
func carriedInto(from, to *ssa.BasicBlock, set []*ssa.Phi) (int, []*ssa.Phi) {
	var out []*ssa.Phi
	for _, f := range set {
		if f.Block() != to {
			out = append(out, f)
		}
	}
	return slices.Index(to.Preds, from), out
}

// leadingPhis returns the phis at the start of a block.
func leadingPhis(b *ssa.BasicBlock) []*ssa.Phi {
	var out []*ssa.Phi
	for _, instr := range b.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		out = append(out, phi)
	}
	return out
}

// condPhis returns the phis of a function that a branch tests, directly
// or through other phis: booleans (if failed), and slices tested for
// emptiness (if len(failed) > 0), and the booleans and counts it returns
// (return success, return errCount). They are the only ones worth
// following as flags.
func (p *Package) condPhis(fn *ssa.Function) map[*ssa.Phi]bool {
	if m, ok := p.condPhisMemo[fn]; ok {
		return m
	}
	m := map[*ssa.Phi]bool{}
	var mark func(v ssa.Value)
	mark = func(v ssa.Value) {
		phi, ok := v.(*ssa.Phi)
		if !ok || m[phi] || !isBool(phi.Type()) && !isSlice(phi.Type()) && !isInteger(phi.Type()) {
			return
		}
		m[phi] = true
		for _, e := range phi.Edges {
			mark(e)
		}
	}
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			// A flag or count the function returns (return errCount).
			for _, r := range ret.Results {
				if isBool(r.Type()) || isInteger(r.Type()) {
					mark(r)
				}
			}
		}
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if phi, _ := lenTest(iff.Cond); phi != nil {
				mark(phi)
				continue
			}
			if isBool(iff.Cond.Type()) {
				mark(iff.Cond)
			}
		}
	}
	if p.condPhisMemo == nil {
		p.condPhisMemo = map[*ssa.Function]map[*ssa.Phi]bool{}
	}
	p.condPhisMemo[fn] = m
	return m
}

// lenTest recognises a branch on whether a slice phi is empty: len(x) > 0
// or len(x) != 0 (nonEmpty), len(x) == 0 (not nonEmpty); or an integer phi,
// a count of failures, is zero (n > 0, n != 0, n == 0).
func lenTest(cond ssa.Value) (phi *ssa.Phi, nonEmpty bool) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return nil, false
	}
	zero, ok := bin.Y.(*ssa.Const)
	if !ok || zero.Value == nil || zero.Value.Kind() != constant.Int || constant.Sign(zero.Value) != 0 {
		return nil, false
	}
	if x, ok := bin.X.(*ssa.Phi); ok && isInteger(x.Type()) {
		phi = x // a failure counter: if errCount > 0 { return err }
	} else {
		call, ok := bin.X.(*ssa.Call)
		if !ok {
			return nil, false
		}
		if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" || len(call.Call.Args) != 1 {
			return nil, false
		}
		if phi, ok = call.Call.Args[0].(*ssa.Phi); !ok || !isSlice(phi.Type()) {
			return nil, false
		}
	}
	switch bin.Op {
	case token.GTR, token.NEQ:
		return phi, true
	case token.EQL:
		return phi, false
	}
	return nil, false
}

// appends reports whether a call appends at least one element to a slice:
// append(s, x), whose elements SSA passes as a slice of a new array.
func appends(c *ssa.Call) bool {
	if b, ok := c.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" || len(c.Call.Args) != 2 {
		return false
	}
	sl, ok := c.Call.Args[1].(*ssa.Slice)
	if !ok || sl.Low != nil || sl.High != nil {
		return false
	}
	a, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	ptr, ok := a.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	arr, ok := ptr.Elem().Underlying().(*types.Array)
	return ok && arr.Len() > 0
}

func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

func flagsKey(flags []*ssa.Phi) string {
	var b strings.Builder
	for _, f := range flags {
		b.WriteString(f.Name())
		b.WriteByte(' ')
	}
	return b.String()
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// handsOn looks at one block of a failure path: ends is true when the path
// ends there (a return, an exit, a requeue, a panic), and handled says
// whether it ends by handing the error on. A path that ends in an error
// makes the caller (the work queue) retry, whatever the error. What the
// code does after a successful write is no answer to a failed one: a
// requeue there (a periodic RequeueAfter) is not about this error. Nor is
// a write that runs whether the write failed or not: a call of a writing
// function of the package redoes the write only in failed, the blocks that
// run only when it failed (if err != nil { return r.retryUpdate(...) }).
func (p *Package) handsOn(b *ssa.BasicBlock, success, failed map[*ssa.BasicBlock]bool) (ends, handled bool) {
	return p.instrsHandOn(b.Instrs, success[b], failed[b], nil)
}

// instrsHandOn is handsOn for a run of instructions; afterSuccess says they
// run after a successful write, onFailure that they run only after a failed
// one. distinct, when set, tells a return whose results tell the caller
// something else than success does.
func (p *Package) instrsHandOn(instrs []ssa.Instruction, afterSuccess, onFailure bool, distinct func(*ssa.Return) bool) (ends, handled bool) {
	for _, instr := range instrs {
		switch x := instr.(type) {
		case *ssa.Return:
			return true, p.returnsFailure(x) || (!afterSuccess && requeues(x, p.resultHandedOn)) || (distinct != nil && distinct(x))
		case ssa.CallInstruction:
			if model.ErrorUseOf(x.Common()) == model.ErrExit {
				return true, true
			}
			if !afterSuccess && (model.IsWorkqueueAdd(x.Common()) || model.IsRequeueCall(x.Common()) || (onFailure && p.rewrites(x.Common())) || p.callSetsRequeue(x.Common())) {
				return true, true
			}
			if onFailure && p.httpErrorReply(x.Common()) {
				return true, true // http.Error(w, msg, 500): the HTTP caller is told
			}
		case *ssa.Store:
			// defer func() { ...; result = ctrl.Result{Requeue: true} }():
			// a deferred closure sets a named result of the function it
			// runs for to a requeue or an error. (Not afterSuccess: the
			// function's error, a variable the write's error may be stored
			// in, is tested for nil before it is set.)
			if p.setsFailingResult(x) {
				return true, true
			}
			// result.RequeueAfter = 15 * time.Second: the reconcile
			// result the function returns asks for a requeue.
			if !afterSuccess && setsRequeue(x) {
				return true, true
			}
		case *ssa.Panic:
			return true, true
		}
	}
	return false, false
}

// setsRequeue reports whether a store sets the Requeue or RequeueAfter
// field of a reconcile.Result to a value that may not be zero.
func setsRequeue(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok || requeueField(fa) == "" {
		return false
	}
	c, ok := st.Val.(*ssa.Const)
	if !ok {
		return true
	}
	switch {
	case c.Value == nil:
		return false
	case c.Value.Kind() == constant.Bool:
		return constant.BoolVal(c.Value)
	case c.Value.Kind() == constant.Int || c.Value.Kind() == constant.Float:
		return constant.Sign(c.Value) != 0
	}
	return true
}

// staleRewrites returns, for a write that failed, a test of whether a block
// on a path after it writes the same object again with an Update (itself or
// through a helper) and hands that write's error on: the object was not read
// again since, so it still carries the version that conflicted, and the
// second write fails with 409 too, which reaches the caller. nil when the
// write is not an Update of an object the analysis sees.
func (p *Package) staleRewrites(write ssa.Instruction) func(instrs []ssa.Instruction) bool {
	first, ok := write.(ssa.CallInstruction)
	if !ok || p.rewriteDepth > 0 {
		return nil
	}
	var obj ssa.Value
	for _, ws := range p.writeSites(first) {
		if ws.Op == model.OpUpdate && ws.Obj != nil {
			obj = ws.Obj
		}
	}
	if obj == nil {
		return nil
	}
	aliases := p.objectAliases(obj)
	return func(instrs []ssa.Instruction) bool {
		p.rewriteDepth++
		defer func() { p.rewriteDepth-- }()
		for _, instr := range instrs {
			x, ok := instr.(ssa.CallInstruction)
			if !ok || x == first {
				continue
			}
			for _, ws := range p.writeSites(x) {
				if ws.Op != model.OpUpdate || ws.Obj == nil || ws.ReadsFirst || ws.Err == nil || !slices.Contains(aliases, strip(ws.Obj)) {
					continue
				}
				if ws.Via != nil && !p.writesOnEveryPath(callee(x.Common()), ws.ViaWrite.Param, 0) {
					continue // a helper that may not write (only when the spec changed)
				}
				if p.mayBeRefilled(aliases, first, x) {
					continue
				}
				if fate, _ := p.ErrorFate(ws.Err, x); fate == Handled {
					return true
				}
			}
		}
		return false
	}
}

// writesOnEveryPath reports whether fn, a function of the package, makes an
// Update of its parameter idx on every path to a return: itself, or
// through a helper of the package that does so on every path. A helper
// of another package, whose fact does not say so, does not.
func (p *Package) writesOnEveryPath(fn *ssa.Function, idx, depth int) bool {
	if fn == nil || depth >= maxCallerDepth || !p.local(fn) || idx < 0 || idx >= len(fn.Params) {
		return false
	}
	aliases := p.objectAliases(fn.Params[idx])
	var blocks []*ssa.BasicBlock
	for _, ws := range p.writesIn(fn) {
		if ws.Op != model.OpUpdate || ws.Obj == nil || !slices.Contains(aliases, strip(ws.Obj)) {
			continue
		}
		if ws.Via != nil && !p.writesOnEveryPath(callee(ws.Call.Common()), ws.ViaWrite.Param, depth+1) {
			continue
		}
		blocks = append(blocks, ws.Call.Block())
	}
	if len(blocks) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); !ok {
			continue
		}
		if !slices.ContainsFunc(blocks, func(w *ssa.BasicBlock) bool { return w.Dominates(b) }) {
			return false
		}
	}
	return true
}

// mayBeRefilled reports whether an object (one of its aliases) may be
// filled (read into, or refreshed by a successful write other than an
// Update, which fails as from did) after from and before to, on some path.
func (p *Package) mayBeRefilled(aliases []ssa.Value, from, to ssa.Instruction) bool {
	for _, a := range aliases {
		for _, e := range p.describe(a).events {
			if e.kind == evFill && e.instr != from && e.instr != to && p.mayReach(from, e.instr) && p.mayReach(e.instr, to) && !p.staleUpdate(e.instr, aliases) {
				return true
			}
		}
	}
	return false
}

// staleUpdate reports whether a call is an Update of the object (one of its
// aliases): after from failed with a conflict it sends the same version and
// fails too, so its response refills nothing.
func (p *Package) staleUpdate(instr ssa.Instruction, aliases []ssa.Value) bool {
	c, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	for _, ws := range p.writeSites(c) {
		if ws.Op == model.OpUpdate && ws.Obj != nil && !ws.ReadsFirst && slices.Contains(aliases, strip(ws.Obj)) {
			return true
		}
	}
	return false
}

// requeueField returns the name of the field a FieldAddr addresses when it
// is Requeue or RequeueAfter of a reconcile.Result, or "".
func requeueField(fa *ssa.FieldAddr) string {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok || !model.IsReconcileResult(ptr.Elem()) {
		return ""
	}
	switch name := FieldName(fa); name {
	case "Requeue", "RequeueAfter":
		return name
	}
	return ""
}

// requeueTest recognises a test of whether the reconcile.Result the
// function is given to fill (a *reconcile.Result parameter) already asks for
// a requeue: res.RequeueAfter == 0, != 0, > 0, or res.Requeue. It returns
// the successor (0 or 1) where it does.
func requeueTest(cond ssa.Value) (int, bool) {
	field := func(v ssa.Value) (string, bool) {
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return "", false
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		if !ok {
			return "", false
		}
		if _, ok := fa.X.(*ssa.Parameter); !ok {
			return "", false
		}
		name := requeueField(fa)
		return name, name != ""
	}
	if name, ok := field(cond); ok && name == "Requeue" {
		return 0, true
	}
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return 0, false
	}
	name, ok := field(bin.X)
	zero, isConst := bin.Y.(*ssa.Const)
	if !ok || name != "RequeueAfter" || !isConst || zero.Value == nil || constant.Sign(zero.Value) != 0 {
		return 0, false
	}
	switch bin.Op {
	case token.EQL:
		return 1, true
	case token.NEQ, token.GTR:
		return 0, true
	}
	return 0, false
}

// callSetsRequeue reports whether a call of a function of the package is
// given a *reconcile.Result that the function may set a requeue in:
// updateRequeueAfter(&result, 15*time.Second).
func (p *Package) callSetsRequeue(c *ssa.CallCommon) bool {
	fn := callee(c)
	if !p.local(fn) || len(fn.Params) != len(c.Args) {
		return false
	}
	for i, arg := range c.Args {
		ptr, ok := arg.Type().Underlying().(*types.Pointer)
		if !ok || !model.IsReconcileResult(ptr.Elem()) {
			continue
		}
		for _, r := range ssax.Referrers(fn.Params[i]) {
			fa, ok := r.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			for _, rr := range ssax.Referrers(fa) {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == fa && setsRequeue(st) {
					return true
				}
			}
		}
	}
	return false
}

// setsFailingResult reports whether a store in a closure sets a named result
// of its enclosing function to a requeue or to an error that may be non-nil.
func (p *Package) setsFailingResult(st *ssa.Store) bool {
	fv, ok := st.Addr.(*ssa.FreeVar)
	if !ok {
		return false
	}
	alloc, ok := p.bindings[fv].(*ssa.Alloc)
	if !ok || !isNamedResult(alloc) {
		return false
	}
	switch {
	case model.IsReconcileResult(st.Val.Type()):
		return isRequeue(st.Val)
	case model.IsError(st.Val.Type()):
		return !isNil(st.Val)
	}
	return false
}

// isNamedResult reports whether a local variable is a named result of its
// function: one that a return of the function loads.
func isNamedResult(a *ssa.Alloc) bool {
	fn := a.Parent()
	if fn == nil || fn.Signature.Results().Len() == 0 || fn.Signature.Results().At(0).Name() == "" {
		return false
	}
	for _, r := range ssax.Referrers(a) {
		ld, ok := r.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		for _, rr := range ssax.Referrers(ld) {
			if _, ok := rr.(*ssa.Return); ok {
				return true
			}
		}
	}
	return false
}

// returnsFailure reports whether a return hands back an error that may be
// non-nil: not nil, and not one assumed nil (assumeNil).
func (p *Package) returnsFailure(ret *ssa.Return) bool {
	for _, r := range ret.Results {
		v := returned(r)
		if model.IsError(r.Type()) && !isNil(v) && (p.assumeNil == nil || !p.assumeNil.values[v]) && (!p.onlyNonNil || shownNonNil(v, ret.Block())) {
			return true
		}
	}
	return false
}

// shownNonNil reports whether an error value is not nil where block b
// runs: it is not the result of a call (a call of fmt.Errorf or
// errors.New is), or b runs only in the branch of a test that it is not
// nil. err = validate(obj); setCondition(obj, err); return ctrl.Result{},
// err returns nil when validate succeeded.
func shownNonNil(v ssa.Value, b *ssa.BasicBlock) bool {
	var c *ssa.CallCommon
	switch x := v.(type) {
	case *ssa.Call:
		c = x.Common()
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok {
			c = call.Common()
		}
	}
	if c == nil {
		return true
	}
	switch model.CalleeName(c) {
	case "fmt.Errorf", "errors.New":
		return true
	}
	for ; b != nil; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		pred := b.Preds[0]
		iff, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		bin, tested := nilTest(iff.Cond)
		if bin == nil || tested != v {
			continue
		}
		if (bin.Op == token.NEQ) == (b == pred.Succs[0]) {
			return true
		}
	}
	return false
}

// requeues reports whether a return of a reconciler asks for a requeue:
// a reconcile.Result other than the zero value, unless handedOn says it is
// the result of the call being judged, handed back as it was: what the
// callee returned on that path, no answer to the failure.
func requeues(ret *ssa.Return, handedOn func(ssa.Value) bool) bool {
	for _, r := range ret.Results {
		if model.IsReconcileResult(r.Type()) && isRequeue(returned(r)) && !handedOn(returned(r)) || requeueValue(r) {
			return true
		}
	}
	return false
}

// requeueValue reports whether a result that is not an error is a
// package-level variable, or its address, whose name asks for another
// attempt (return worker.StatusConflict, model.IsRequeueValue), or a field
// so named of a struct that the function does not set (return r.Requeue,
// a reconciler's configured requeue result).
func requeueValue(r ssa.Value) bool {
	if model.IsError(r.Type()) {
		return false
	}
	v := returned(r)
	if c, ok := strip(v).(*ssa.Call); ok && delayedRequeue(c.Common()) {
		return true // NewResult(..., 10*time.Second)
	}
	if f := loadedConfigField(v); f != nil {
		return model.IsRequeueValue(f.Name()) // r.Requeue
	}
	g, ok := v.(*ssa.Global) // &worker.StatusConflict
	if !ok {
		g = loadedGlobal(v) // worker.StatusConflict
	}
	return g != nil && model.IsRequeueValue(g.Name())
}

// loadedConfigField returns the field a value loads from a struct (r.Requeue)
// when the function that loads it stores nothing into that field of that
// struct: a setting the struct was built with.
func loadedConfigField(v ssa.Value) *types.Var {
	_, fa := fieldLoad(v)
	if fa == nil {
		return nil
	}
	st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for _, r := range ssax.Referrers(fa.X) {
		f, isField := r.(*ssa.FieldAddr)
		if !isField || f.Field != fa.Field {
			continue
		}
		for _, rr := range ssax.Referrers(f) {
			if s, isStore := rr.(*ssa.Store); isStore && s.Addr == f {
				return nil // the function sets it: it says what this pass chose
			}
		}
	}
	return st.Field(fa.Field)
}

// delayedRequeue reports whether a call builds a result of a controller's
// own that asks for a requeue: it passes a delay other than a constant
// zero for a parameter its callee names for one (model.RequeueDelayParam).
func delayedRequeue(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	if fn == nil {
		return false
	}
	i := model.RequeueDelayParam(fn.Signature)
	if i < 0 {
		return false
	}
	if fn.Signature.Recv() != nil {
		i++ // the receiver comes first among the arguments
	}
	if i >= len(c.Args) {
		return false
	}
	if k, ok := c.Args[i].(*ssa.Const); ok && (k.Value == nil || constant.Sign(k.Value) == 0) {
		return false
	}
	return true
}

// returned looks through the result slots of a function with deferred
// calls: return x stores x in a slot, runs the deferred calls and returns a
// load of the slot. It gives the value last stored in the slot in the same
// block, or v itself.
func returned(v ssa.Value) ssa.Value {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return v
	}
	slot, ok := ld.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	var last ssa.Value
	for _, instr := range ld.Block().Instrs {
		if instr == ld {
			break
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == slot {
			last = st.Val
		}
	}
	if last == nil {
		return v
	}
	return last
}

// literalRequeue reports whether a return hands back a reconcile.Result
// literal that asks for a requeue (return ctrl.Result{RequeueAfter: d}, nil),
// or a package-level variable (or its address) whose name asks for one
// (return worker.StatusConflict, model.IsRequeueValue):
// it does whichever path led there, after a successful write too, so a
// dropped or logged failure is written again on the next pass. (A result
// variable that a success path alone set is no answer to a failure; nor, to
// a conflict a test catches, is a requeue success returns too, unless it
// comes soon: soonRequeue.)
func literalRequeue(ret *ssa.Return) bool {
	return requeueLiteral(ret, setsRequeue)
}

// soonRequeue is literalRequeue for a result that asks to come back within
// a minute (Requeue: true, RequeueAfter: 2 * time.Second): such a pass is a
// retry of whatever failed before it, where a longer delay is a resync
// period that leaves the change lost until then.
func soonRequeue(ret *ssa.Return) bool {
	return requeueLiteral(ret, func(st *ssa.Store) bool {
		c, ok := st.Val.(*ssa.Const)
		if !ok || c.Value == nil || !setsRequeue(st) {
			return false
		}
		if c.Value.Kind() != constant.Int {
			return c.Value.Kind() == constant.Bool
		}
		d, exact := constant.Int64Val(c.Value)
		return exact && d <= int64(time.Minute)
	})
}

// requeueLiteral reports whether ret returns a package-level requeue value
// or a reconcile result literal with a field stored as sets accepts.
func requeueLiteral(ret *ssa.Return, sets func(*ssa.Store) bool) bool {
	for _, r := range ret.Results {
		if requeueValue(r) {
			return true
		}
		if !model.IsReconcileResult(r.Type()) {
			continue
		}
		ld, ok := returned(r).(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		a, ok := ld.X.(*ssa.Alloc)
		if !ok {
			continue
		}
		// The literal's own stores, in the return's block or, for a
		// literal the function keeps in a variable it never changes
		// (requeueY := ctrl.Result{RequeueAfter: d} ... return requeueY,
		// nil), in one that dominates it; other uses are its loads.
		requeue := false
		for _, ref := range ssax.Referrers(a) {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				if ref == ssa.Instruction(ld) {
					continue
				}
				if u, ok := ref.(*ssa.UnOp); !ok || u.Op != token.MUL || a.Comment != "complit" {
					requeue = false
					break
				}
				continue
			}
			if fa.Block() != ret.Block() && (a.Comment != "complit" || !fa.Block().Dominates(ret.Block())) {
				requeue = false
				break
			}
			for _, rr := range ssax.Referrers(fa) {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == fa && sets(st) {
					requeue = true
				}
			}
		}
		if requeue {
			return true
		}
	}
	return false
}

// isRequeue reports whether a reconcile.Result may ask for a requeue: it is
// not the zero value.
func isRequeue(r ssa.Value) bool {
	if c, ok := r.(*ssa.Const); ok && c.Value == nil {
		return false // reconcile.Result{}
	}
	return !isZeroLiteral(r)
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
	for _, r := range ssax.Referrers(a) {
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
// returns the error is followed by the error's taint instead), or a retry
// helper given a function of the package that writes (on failure,
// retry.RetryOnConflict(backoff, func() error { Get; ...; Update })).
func (p *Package) rewrites(c *ssa.CallCommon) bool {
	fn := callee(c)
	if f, ok := model.FuncOf(c); ok && f.Kind == model.FuncRetry {
		fn = funcValue(model.Arg(c, f.Fn))
	}
	return p.local(fn) && p.summary(fn).Writer
}

// swallowsConflict reports whether a function given an error returns nil
// for a conflict and hands other errors back (func ignoreConflict(err
// error) error), from its summary or, in another package, its fact.
func (p *Package) swallowsConflict(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	return known(p, fn, func(s *Summary) bool { return s.SwallowsConflictArg }, func(f *FuncFact) bool { return f.SwallowsConflict })
}

// swallowsConflictArg reports whether an error parameter, tested for a
// conflict, leads to a path that hands no error on.
func (p *Package) swallowsConflictArg(t *errTaint) bool {
	if len(t.swallowers) > 0 {
		return true
	}
	success, failed := p.successBlocks(t, nil), p.failureBlocks(t)
	for _, c := range t.conflictChecks {
		if succ := conflictSuccessor(c); succ != nil && !p.handledFrom(succ, nil, t, success, failed, nil) {
			return true
		}
	}
	return false
}

// distinctFromSuccess returns a test of a return on a conflict path: whether
// one of its results, a constant of a basic type other than an error, differs
// from that result of every return that follows a successful write (the
// error known nil there), or is a pointer known not to be nil where every
// such return gives nil, or a package-level variable where every such
// return gives another one (return StatusConflict, return StatusAllOK).
// nil when no such return is found. A reconcile.Result is not compared:
// what it asks of the work queue is requeues' question.
func (p *Package) distinctFromSuccess(write ssa.Instruction, t *errTaint, success map[*ssa.BasicBlock]bool) func(*ssa.Return) bool {
	if write == nil || write.Block() == nil {
		return nil
	}
	var rets []*ssa.Return
	add := func(b *ssa.BasicBlock) {
		if len(b.Instrs) == 0 {
			return
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && p.succeeds(ret, t) {
			rets = append(rets, ret)
		}
	}
	for b := range success {
		add(b)
	}
	if len(success) == 0 {
		// return err == nil, err: no nil check branches; the returns reached
		// from the write other than through a conflict test's true branch.
		avoid := map[*ssa.BasicBlock]bool{}
		for _, c := range t.conflictChecks {
			if succ := conflictSuccessor(c); succ != nil {
				avoid[succ] = true
			}
		}
		seen := map[*ssa.BasicBlock]bool{}
		stack := []*ssa.BasicBlock{write.Block()}
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[b] || avoid[b] {
				continue
			}
			seen[b] = true
			add(b)
			stack = append(stack, b.Succs...)
		}
	}
	if len(rets) == 0 {
		return nil
	}
	return func(ret *ssa.Return) bool {
		for i, r := range ret.Results {
			if _, ptr := r.Type().Underlying().(*types.Pointer); ptr && p.nonNil(returned(r), 0) {
				// return nil, httpError(...) where success returns (obj,
				// nil): a pointer the caller tests against nil.
				nilOnSuccess := true
				for _, s := range rets {
					if !isNil(returned(s.Results[i])) {
						nilOnSuccess = false
						break
					}
				}
				if nilOnSuccess {
					return true
				}
				continue
			}
			if g := loadedGlobal(returned(r)); g != nil && !model.IsError(r.Type()) {
				// return worker.StatusConflict where success returns
				// worker.StatusAllOK: package-level variables a caller
				// tells apart, as named results.
				differs := true
				for _, s := range rets {
					if sg := loadedGlobal(returned(s.Results[i])); sg == nil || sg == g {
						differs = false
						break
					}
				}
				if differs {
					return true
				}
				continue
			}
			c, ok := returned(r).(*ssa.Const)
			if !ok || c.Value == nil || model.IsError(r.Type()) {
				continue
			}
			if _, basic := r.Type().Underlying().(*types.Basic); !basic {
				continue
			}
			differs := true
			for _, s := range rets {
				v := onSuccess(returned(s.Results[i]), t)
				if v == nil || v.Kind() != c.Value.Kind() || constant.Compare(v, token.EQL, c.Value) {
					differs = false
					break
				}
			}
			if differs {
				return true
			}
		}
		return false
	}
}

// nonNil reports whether a pointer is known not to be nil: an allocation
// (&T{...}), the address of a package-level variable, or the result of a
// function of the package each return of which gives one (a constructor
// one call deep).
func (p *Package) nonNil(v ssa.Value, depth int) bool {
	switch x := v.(type) {
	case *ssa.Alloc, *ssa.Global:
		return true
	case *ssa.Call:
		fn := x.Call.StaticCallee()
		if depth > 0 || !p.local(fn) || x.Call.Signature().Results().Len() != 1 {
			return false
		}
		n := 0
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				if len(ret.Results) != 1 || !p.nonNil(returned(ret.Results[0]), depth+1) {
					return false
				}
				n++
			}
		}
		return n > 0
	}
	return false
}

// loadedGlobal returns the package-level variable v is the value of (a
// load of it), or nil.
func loadedGlobal(v ssa.Value) *ssa.Global {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		g, _ := ld.X.(*ssa.Global)
		return g
	}
	return nil
}

// succeeds reports whether a return reports success: each error it returns is
// nil, or the write's error (nil where it succeeded).
func (p *Package) succeeds(ret *ssa.Return, t *errTaint) bool {
	for _, r := range ret.Results {
		if r = returned(r); model.IsError(r.Type()) && !isNil(r) && !t.values[r] {
			return false
		}
	}
	return true
}

// onSuccess is the constant value of a result where the write succeeded: a
// constant, or a nil test of the write's error (err == nil is true); nil
// when it is not known.
func onSuccess(v ssa.Value, t *errTaint) constant.Value {
	switch x := v.(type) {
	case *ssa.Const:
		return x.Value
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return nil
		}
		if (t.values[x.X] && isNil(x.Y)) || (t.values[x.Y] && isNil(x.X)) {
			return constant.MakeBool(x.Op == token.EQL)
		}
	}
	return nil
}

// Uncalled reports whether fn (or the function it is a closure of) is an
// unexported function or method of the package that nothing can call: no
// call of it in the package, no use as a value, no call through an
// interface that may reach it, and no directive (//go:linkname, //export)
// that lets other code call it. Code that never runs loses no update.
func (p *Package) Uncalled(fn *ssa.Function) bool {
	if fn == nil || p.opts.Partial {
		return false
	}
	fn = outermost(fn)
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Exported() || fn.Synthetic != "" || fn.Pkg != p.Pkg {
		return false
	}
	if fn.TypeParams().Len() > 0 || fn.Origin() != nil {
		return false // its calls are calls of its instances
	}
	switch obj.Name() {
	case "init", "main", "_":
		return false
	}
	if len(p.callsOf[fn]) > 0 || p.escapes(fn) {
		return false
	}
	if decl, ok := fn.Syntax().(*ast.FuncDecl); ok && decl.Doc != nil {
		for _, c := range decl.Doc.List {
			if strings.HasPrefix(c.Text, "//go:linkname") || strings.HasPrefix(c.Text, "//export ") {
				return false
			}
		}
	}
	return true
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
