package flow

import (
	"go/token"
	"go/types"
	"iter"
	"slices"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Retry is a conflict retry: a function run again by a retry helper when it
// fails with a conflict, or a loop that goes round again on a conflict.
type Retry struct {
	Call         ssa.CallInstruction // the retry helper call; nil for a loop
	Fn           *ssa.Function       // the function the helper retries; nil for a loop
	Loop         *Loop               // a hand-written retry loop; nil otherwise
	Name         string              // how to call it in a message: "retry.RetryOnConflict", "a retry loop", ...
	ConflictOnly bool                // retries only on 409 Conflict (not on 422 Invalid)
	Bounded      bool                // attempts or time are bounded
	Backoff      bool                // waits between attempts
	MinWait      time.Duration       // at least this long between attempts, where known (0: not known)
	Via          *types.Func         // the user's helper that runs the function in a retry
	Ctx          ssa.Value           // the context whose deadline bounds an otherwise unbounded poll
	// CtxAttempts: Ctx is only given to the attempts (a loop that does not
	// check it), which end the retry by failing once it is done: only a
	// context known to have a deadline bounds it.
	CtxAttempts bool
	// ByCond: a wait whose condition decides what is retried, not known
	// where the retry is set up; the function run must retry conflicts.
	ByCond bool
}

// Pos is where the retry is.
func (r *Retry) Pos() token.Pos {
	if r.Call != nil {
		return r.Call.Common().Pos()
	}
	return r.Loop.Pos()
}

// Inside reports whether an instruction runs as part of the retried attempt.
func (r *Retry) Inside(instr ssa.Instruction) bool {
	if instr == nil {
		return false
	}
	if r.Fn != nil {
		return within(instr.Parent(), r.Fn)
	}
	return instr.Parent() == r.Loop.Fn && r.Loop.Blocks[instr.Block()]
}

// Loop is a natural loop of a function.
type Loop struct {
	Fn     *ssa.Function
	Header *ssa.BasicBlock
	Blocks map[*ssa.BasicBlock]bool
	// order is Blocks in the order of the function's blocks: what walks a
	// loop's blocks walks them in this order, so that its answer does not
	// depend on a map's.
	order []*ssa.BasicBlock
	// Conflict is the IsConflict call that makes it a conflict retry loop.
	Conflict *ssa.Call
	// NilCheck, without Conflict, is the nil check of an attempt's error
	// whose failure goes round the loop again and whose success leaves it:
	// a loop that retries every error, conflicts too.
	NilCheck *ssa.BinOp
	// Attempts are the calls whose error the conflict check tests.
	Attempts []ssa.CallInstruction
	// AlsoInvalid is true when the loop also retries on apierrors.IsInvalid.
	AlsoInvalid bool
	// Iterates is true for a loop over a collection (range over a slice or a
	// map): going round again moves to the next element, it is not a retry.
	Iterates bool
}

// Pos is the position of the loop's conflict check.
func (l *Loop) Pos() token.Pos {
	if l.Conflict != nil {
		return l.Conflict.Pos()
	}
	if l.NilCheck != nil {
		return l.NilCheck.Pos()
	}
	return l.Fn.Pos()
}

// retries reports whether the loop is a retry of conflicts: it goes round
// again on a conflict, or on any error, and does not walk a collection.
func (l *Loop) retries() bool {
	return (l.Conflict != nil || l.NilCheck != nil) && !l.Iterates
}

// RetryOf returns the innermost conflict retry an instruction runs in, or nil.
func (p *Package) RetryOf(instr ssa.Instruction) *Retry {
	fn := instr.Parent()
	// The innermost: a bounded attempt loop inside a pagination loop
	// (for { List ...; for attempt := 0; attempt < 5; attempt++ { ... } })
	// is the retry, not the loop around it.
	var inner *Loop
	for _, l := range p.Loops(fn) {
		if l.retries() && l.Blocks[instr.Block()] && (inner == nil || len(l.Blocks) < len(inner.Blocks)) {
			inner = l
		}
	}
	if l := inner; l != nil {
		r := &Retry{Loop: l, Name: "a retry loop", ConflictOnly: !l.AlsoInvalid && l.NilCheck == nil, Bounded: p.loopBounded(l), Backoff: l.backoff(), MinWait: l.minWait(p.fixedGlobal)}
		if l.NilCheck == nil {
			// A deadline of the context the attempts are given ends a
			// loop that retries only conflicts: they fail with
			// another error once it is past.
			r.Ctx, r.CtxAttempts = attemptsContext(l), true
		}
		return r
	}
	for f := fn; f != nil; f = f.Parent() {
		if r := p.Retried(f); r != nil {
			return r
		}
	}
	return nil
}

// funcArg is a call that passes a function value as its argument index.
type funcArg struct {
	call  ssa.CallInstruction
	index int // counted without the receiver
}

// indexFuncArgs finds, for every function value passed to a call, the call
// and the argument.
func (p *Package) indexFuncArgs() map[*ssa.Function][]funcArg {
	out := map[*ssa.Function][]funcArg{}
	for call := range p.calls {
		for i, arg := range model.Args(call.Common()) {
			// A function, or one passed as an interface value (gomega's
			// Eventually takes interface{}).
			if _, ok := strip(arg).Type().Underlying().(*types.Signature); !ok {
				continue
			}
			for _, fn := range p.funcValues(arg) {
				out[fn] = append(out[fn], funcArg{call, i})
			}
		}
	}
	return out
}

// Retried returns the conflict retry that runs a function (passed to a
// retry helper: the model's RetryOnConflict, OnError and wait.*, the user's
// configured ones, and helpers whose summary or fact says they retry a
// function argument), or nil.
func (p *Package) Retried(fn *ssa.Function) *Retry {
	if r, ok := p.retried[fn]; ok {
		return r
	}
	p.retried[fn] = nil // while computing: a cycle finds no retry
	var found *Retry
	for _, use := range p.funcArgs[fn] {
		for _, r := range p.retriesOfCall(use.call) {
			if r.argIndex != use.index {
				continue
			}
			rr := r.Retry
			rr.Fn = fn
			if rr.ByCond && !p.delegates(fn) {
				switch {
				case p.mentionsConflictFn(fn, 0):
					rr.ConflictOnly = !p.mentionsInvalid(fn)
				case p.retriesEveryError(fn):
					rr.ConflictOnly = false
				default:
					continue // the condition does not retry conflicts
				}
				rr.ByCond = false
			}
			found = &rr
			break
		}
		if found != nil {
			break
		}
	}
	p.retried[fn] = found
	return found
}

type callRetry struct {
	Retry
	argIndex int // argument (without receiver) holding the retried function
}

// retriesOfCall returns the conflict retries a call starts.
func (p *Package) retriesOfCall(call ssa.CallInstruction) []callRetry {
	c := call.Common()
	if f, ok := model.FuncOf(c); ok && f.Kind == model.FuncRetry {
		r := Retry{Call: call, Name: model.ShortName(model.CalleeName(c)), Bounded: f.Bounded, Backoff: f.Backoff}
		if f.Wait >= 0 {
			r.MinWait = model.MinWait(model.Arg(c, f.Wait), p.fixedGlobal)
		}
		if f.Ctx >= 0 {
			r.Ctx = model.Arg(c, f.Ctx)
		}
		switch f.Retries {
		case model.RetriesConflict:
			r.ConflictOnly = true
		case model.RetriesAll:
		case model.RetriesByPred:
			conflict, only := p.predicateRetriesConflict(model.Arg(c, f.Pred))
			if !conflict {
				return nil
			}
			r.ConflictOnly = only
		case model.RetriesByCond:
			cond := model.Arg(c, f.Fn)
			switch {
			case len(p.funcValues(cond)) == 0:
				// A condition the code receives (a wrapper's parameter):
				// whether it retries conflicts is the caller's condition's.
				r.ByCond = true
			case p.mentionsConflict(cond, 0):
				r.ConflictOnly = !p.mentionsInvalid(cond)
			case p.retriesEveryError(cond) || p.retriesOnError(cond):
				// (false, nil) when something fails: conflicts are retried too.
			case p.delegates(cond):
				// A condition that returns what the caller's condition says.
				r.ByCond = true
			default:
				return nil
			}
		}
		return []callRetry{{r, f.Fn}}
	}
	fn := callee(c)
	name := FullName(fn)
	if name != "" && p.opts.RetryHelpers[name] {
		var out []callRetry
		sig := c.Signature()
		for i := 0; i < sig.Params().Len(); i++ {
			if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok {
				out = append(out, callRetry{Retry{Call: call, Name: model.ShortName(name), ConflictOnly: false, Bounded: true, Backoff: true, Via: funcObject(fn)}, i})
			}
		}
		return out
	}
	rs := known(p, fn, func(s *Summary) []RetryFact { return s.Retries }, func(f *FuncFact) []RetryFact { return f.Retries })
	var out []callRetry
	for _, rf := range rs {
		idx := rf.Param
		if fn != nil && fn.Signature.Recv() != nil {
			idx-- // summaries count the receiver
		}
		r := Retry{Call: call, Name: model.ShortName(name), ConflictOnly: rf.ConflictOnly, Bounded: rf.Bounded, Backoff: rf.Backoff, MinWait: rf.MinWait, Via: funcObject(fn), ByCond: rf.ByCond}
		if rf.HasCtx {
			ci := rf.Ctx
			if fn != nil && fn.Signature.Recv() != nil {
				ci--
			}
			r.Ctx, r.CtxAttempts = model.Arg(c, ci), rf.CtxAttempts
		}
		out = append(out, callRetry{r, idx})
	}
	return out
}

// funcValues resolves a function value to the functions it may be.
func (p *Package) funcValues(v ssa.Value) []*ssa.Function {
	if v == nil {
		return nil
	}
	var out []*ssa.Function
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] {
			return
		}
		seen[v] = true
		switch x := strip(v).(type) {
		case *ssa.Function:
			out = append(out, x)
		case *ssa.MakeClosure:
			if fn, ok := x.Fn.(*ssa.Function); ok {
				out = append(out, fn)
			}
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e)
			}
		case *ssa.UnOp:
			if x.Op == token.MUL && isVariable(x.X) {
				for _, sv := range p.storedValues(root(x.X, p)) {
					walk(sv)
				}
			}
		case *ssa.FreeVar:
			if b, ok := p.bindings[x]; ok {
				walk(b)
			}
		case *ssa.Call:
			// A function of the package that returns a func value
			// (makeCondition(...) returns func(ctx) (bool, error)): what
			// each of its returns gives.
			fn := x.Call.StaticCallee()
			if !p.local(fn) || x.Call.Signature().Results().Len() != 1 {
				return
			}
			for _, b := range fn.Blocks {
				if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
					walk(ret.Results[0])
				}
			}
		}
	}
	walk(v)
	return out
}

// predicateRetriesConflict inspects a retry.OnError predicate: does it accept
// conflicts, and only conflicts?
func (p *Package) predicateRetriesConflict(v ssa.Value) (conflict, only bool) {
	fns := p.funcValues(v)
	for _, fn := range fns {
		if obj := funcObject(fn); obj != nil && model.IsConflictFunc(obj) {
			return true, len(fns) == 1
		}
	}
	for _, fn := range fns {
		if p.mentionsConflictFn(fn, 0) {
			return true, onlyConflict(fn)
		}
		if alwaysTrue(fn) {
			return true, false
		}
	}
	return false, false
}

// onlyConflict reports whether a predicate's every return is IsConflict(err).
func onlyConflict(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ret, ok := instr.(*ssa.Return)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			call, ok := ret.Results[0].(*ssa.Call)
			if !ok || !model.CallsIsConflict(call.Common()) {
				return false
			}
		}
	}
	return true
}

// alwaysTrue reports whether a predicate returns true whatever the error.
func alwaysTrue(fn *ssa.Function) bool {
	n := 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ret, ok := instr.(*ssa.Return); ok {
				if len(ret.Results) != 1 {
					return false
				}
				c, ok := ret.Results[0].(*ssa.Const)
				if !ok || c.Value == nil || c.Value.String() != "true" {
					return false
				}
				n++
			}
		}
	}
	return n > 0
}

// mentionsConflict reports whether a function value checks for a conflict
// (calls apierrors.IsConflict, or a local function that does).
func (p *Package) mentionsConflict(v ssa.Value, depth int) bool {
	for _, fn := range p.funcValues(v) {
		if p.mentionsConflictFn(fn, depth) {
			return true
		}
	}
	return false
}

func (p *Package) mentionsConflictFn(fn *ssa.Function, depth int) bool {
	if depth > maxConflictCallDepth || fn == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if model.CallsIsConflict(c.Common()) {
				return true
			}
			if cf := callee(c.Common()); !p.local(cf) && p.isConflictCall(c.Common()) {
				return true
			} else if p.local(cf) && p.mentionsConflictFn(cf, depth+1) {
				return true
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if p.mentionsConflictFn(anon, depth+1) {
			return true
		}
	}
	return false
}

// Loops returns the natural loops of a function, with what makes them
// conflict retry loops.
func (p *Package) Loops(fn *ssa.Function) []*Loop {
	if ls, ok := p.loops[fn]; ok {
		return ls
	}
	var loops []*Loop
	byHeader := map[*ssa.BasicBlock]*Loop{}
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &Loop{Fn: fn, Header: h, Blocks: map[*ssa.BasicBlock]bool{h: true}}
				byHeader[h] = l
				loops = append(loops, l)
			}
			// Blocks that reach the back edge without passing the header.
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.Blocks[x] {
					continue
				}
				l.Blocks[x] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	for _, l := range loops {
		for _, b := range fn.Blocks {
			if l.Blocks[b] {
				l.order = append(l.order, b)
			}
		}
		l.Iterates = iterates(l)
		p.findConflictCheck(l)
	}
	p.loops[fn] = loops
	return loops
}

// iterates reports whether a loop walks a collection: range over a map, a
// string or a channel, or an induction variable used as an index.
func iterates(l *Loop) bool {
	for _, b := range l.order {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Next:
				if b == l.Header {
					return true
				}
			case *ssa.UnOp:
				if x.Op == token.ARROW && b == l.Header {
					// for range time.Tick(d), or <-time.After(d) first
					// in a for {}: a wait, not a collection.
					if _, repeats, ok := model.TimerChan(x.X); ok && (repeats || !x.CommaOk) {
						continue
					}
					return true
				}
			case *ssa.IndexAddr:
				if inductive(x.Index, l) {
					return true
				}
			case *ssa.Index:
				if inductive(x.Index, l) {
					return true
				}
			}
		}
	}
	return false
}

// inductive reports whether an index is the loop's induction variable (a
// phi of the header, or that plus a constant: range loops index with i+1).
func inductive(v ssa.Value, l *Loop) bool {
	if b, ok := v.(*ssa.BinOp); ok && b.Op == token.ADD {
		if _, ok := b.Y.(*ssa.Const); ok {
			v = b.X
		}
	}
	phi, ok := v.(*ssa.Phi)
	return ok && phi.Block() == l.Header
}

// findConflictCheck finds an IsConflict check of an error from a call in the
// loop, whose conflict outcome goes round the loop again.
func (p *Package) findConflictCheck(l *Loop) {
	for _, b := range l.order {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !p.isConflictCall(call.Common()) || len(call.Call.Args) != 1 {
				continue
			}
			attempts := errorSources(call.Call.Args[0], l)
			if len(attempts) == 0 {
				continue
			}
			succ := conflictSuccessor(call)
			if succ == nil || !l.Blocks[succ] {
				continue
			}
			if succ != l.Header && !reachable(succ, l.Header, outside(l)) && succ != l.Header {
				continue
			}
			if p.handsToRetry(succ, l) {
				// if IsConflict(err) { err = retry.RetryOnConflict(...) }:
				// the conflict is retried there, and going round moves on.
				continue
			}
			l.Conflict = call
			l.Attempts = attempts
			l.AlsoInvalid = loopCallsInvalid(l)
			return
		}
	}
	// A loop that goes round again on any error of an attempt and leaves
	// when it succeeds: for i := 0; i < n && err != nil; i++ { err = op() }.
	for _, b := range l.order {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		bin, errv := nilTest(iff.Cond)
		if bin == nil || !model.IsError(errv.Type()) {
			continue
		}
		failure := failureSuccessor(iff)
		success := iff.Block().Succs[0]
		if success == failure {
			success = iff.Block().Succs[1]
		}
		if !l.Blocks[failure] || l.Blocks[success] {
			continue
		}
		if failure != l.Header && !p.conflictGoesRound(failure, l) {
			continue
		}
		attempts := errorSources(errv, l)
		if len(attempts) == 0 {
			continue
		}
		l.NilCheck = bin
		l.Attempts = attempts
		return
	}
}

// conflictGoesRound reports whether a loop's failure branch, which begins
// at failure, goes round to another attempt when the error is a conflict:
// a test for another kind of error (if errors.Is(err,
// context.DeadlineExceeded) { continue }, otherKindTest) is false then.
func (p *Package) conflictGoesRound(failure *ssa.BasicBlock, l *Loop) bool {
	return p.reachedOnConflict(failure, l.Blocks, func(b *ssa.BasicBlock) bool { return b == l.Header })
}

// handsToRetry reports whether the branch of a loop that begins at succ
// starts a conflict retry of its own.
func (p *Package) handsToRetry(succ *ssa.BasicBlock, l *Loop) bool {
	for _, b := range l.order {
		if !succ.Dominates(b) {
			continue
		}
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && len(p.retriesOfCall(c)) > 0 {
				return true
			}
		}
	}
	return false
}

// retryStart returns the edge where a retry loop's path to another attempt
// begins: from the block of its IsConflict test to the conflict branch, or
// from its nil check to the failure branch.
func (l *Loop) retryStart() (from, to *ssa.BasicBlock) {
	var iff *ssa.If
	switch {
	case l.Conflict != nil:
		to = conflictSuccessor(l.Conflict)
	case l.NilCheck != nil:
		for _, r := range ssax.Referrers(l.NilCheck) {
			if x, ok := r.(*ssa.If); ok {
				iff = x
				to = failureSuccessor(x)
			}
		}
	}
	if to == nil {
		return nil, nil
	}
	for _, pred := range to.Preds {
		if iff != nil && pred == iff.Block() {
			return pred, to
		}
		if iff == nil && l.Blocks[pred] {
			if last, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If); ok && (last.Cond == ssa.Value(l.Conflict) || isNot(last.Cond, l.Conflict)) {
				return pred, to
			}
		}
	}
	return nil, nil
}

// isNot reports whether v is !c.
func isNot(v ssa.Value, c *ssa.Call) bool {
	u, ok := v.(*ssa.UnOp)
	return ok && u.Op == token.NOT && u.X == ssa.Value(c)
}

// attemptsContext returns the context argument of a retry loop's attempts,
// or nil.
func attemptsContext(l *Loop) ssa.Value {
	for _, a := range l.Attempts {
		for _, arg := range model.Args(a.Common()) {
			if model.IsContext(arg.Type()) {
				return arg
			}
		}
	}
	return nil
}

// outside returns a predicate set of the blocks not in a loop (to avoid).
func outside(l *Loop) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	for _, b := range l.Fn.Blocks {
		if !l.Blocks[b] {
			out[b] = true
		}
	}
	return out
}

// conflictSuccessor returns the block an IsConflict call branches to when
// the error is a conflict.
func conflictSuccessor(call *ssa.Call) *ssa.BasicBlock {
	for _, r := range ssax.Referrers(call) {
		switch x := r.(type) {
		case *ssa.If:
			return x.Block().Succs[0]
		case *ssa.UnOp:
			if x.Op == token.NOT {
				for _, rr := range ssax.Referrers(x) {
					if iff, ok := rr.(*ssa.If); ok {
						return iff.Block().Succs[1]
					}
				}
			}
		}
	}
	return nil
}

// errorSources returns the calls in a loop whose error value v is.
func errorSources(v ssa.Value, l *Loop) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if seen[v] {
			return
		}
		seen[v] = true
		switch x := strip(v).(type) {
		case *ssa.Call:
			if l.Blocks[x.Block()] {
				if u := model.ErrorUseOf(x.Common()); u == model.ErrWrap {
					for _, a := range x.Call.Args {
						walk(a)
					}
					return
				}
				out = append(out, x)
			}
		case *ssa.Extract:
			if c, ok := x.Tuple.(*ssa.Call); ok && l.Blocks[c.Block()] {
				out = append(out, c)
			}
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e)
			}
		case *ssa.UnOp:
			if x.Op == token.MUL && isVariable(x.X) {
				// err stored in a variable captured by a closure
				return
			}
		}
	}
	walk(v)
	return out
}

// loopBounded reports whether a retry loop has an exit other than success
// or a non-conflict error: a counter that the retry advances or a deadline
// compared in the loop, a check of a context that can be done (ctx.Err(),
// a select on ctx.Done()), or a select on a timeout or a stop channel.
func (p *Package) loopBounded(l *Loop) bool {
	for _, b := range l.order {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		exits := !l.Blocks[b.Succs[0]] || !l.Blocks[b.Succs[1]]
		if !exits {
			// if attempt < 10 && IsConflict(err) { re-read; continue }:
			// the retry goes through one branch of the bound only.
			if bin, ok := iff.Cond.(*ssa.BinOp); ok && isOrdering(bin.Op) && advances(l, bin) && l.retryNeeds(b) {
				return true
			}
			continue
		}
		if bin, ok := iff.Cond.(*ssa.BinOp); ok {
			switch bin.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				if advances(l, bin) {
					return true
				}
			case token.EQL, token.NEQ:
				if counterOf(l, bin) != nil && advances(l, bin) {
					return true
				}
				if ctx := ctxErrOf(bin); ctx != nil && p.ctxKind(ctx) != ctxNever {
					return true
				}
			}
		}
		if c, ok := iff.Cond.(*ssa.Call); ok {
			if model.ComparesTime(c.Common()) {
				return true
			}
		}
	}
	for _, b := range l.order {
		for _, instr := range b.Instrs {
			if sel, ok := instr.(*ssa.Select); ok && p.selectEnds(sel, l) {
				return true
			}
		}
	}
	return false
}

func isOrdering(op token.Token) bool {
	return op == token.LSS || op == token.LEQ || op == token.GTR || op == token.GEQ
}

// retryNeeds reports whether the retry path of a loop (the conflict branch)
// can be reached from the loop's header only through one of the two
// branches of the If that ends block b.
func (l *Loop) retryNeeds(b *ssa.BasicBlock) bool {
	_, start := l.retryStart()
	if start == nil || start == l.Header {
		return false
	}
	for skip := range b.Succs {
		seen := map[*ssa.BasicBlock]bool{}
		stack := []*ssa.BasicBlock{l.Header}
		reached := false
		for len(stack) > 0 && !reached {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[x] {
				continue
			}
			seen[x] = true
			for i, s := range x.Succs {
				switch {
				case x == b && i == skip, !l.Blocks[s], s == l.Header:
				case s == start:
					reached = true
				default:
					stack = append(stack, s)
				}
			}
		}
		if !reached {
			return true
		}
	}
	return false
}

// selectEnds reports whether a select in a retry loop may end it: a case
// on the Done channel of a context that can be done (one of unknown origin
// too), on a timeout made before the loop, or on another channel (a stop
// channel). A timer made in the loop, or a ticker, only spaces attempts.
func (p *Package) selectEnds(sel *ssa.Select, l *Loop) bool {
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			return true
		}
		ch := strip(st.Chan)
		if c, ok := ch.(*ssa.Call); ok {
			if ctx, ok := model.ContextDone(c.Common()); ok {
				if p.ctxKind(ctx) != ctxNever {
					return true
				}
				continue
			}
		}
		if call, repeats, ok := model.TimerChan(ch); ok {
			if repeats || call != nil && l.Blocks[call.Block()] {
				continue
			}
		}
		return true
	}
	return false
}

// counterOf returns the loop counter a comparison tests: a phi of the
// loop's header of an integer type, or nil.
func counterOf(l *Loop, bin *ssa.BinOp) *ssa.Phi {
	for _, v := range []ssa.Value{bin.X, bin.Y} {
		phi, ok := v.(*ssa.Phi)
		if !ok || phi.Block() != l.Header {
			continue
		}
		if b, ok := phi.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return phi
		}
	}
	return nil
}

// advances reports whether a bound compared in a retry loop moves on when
// the loop goes round again to retry: false for a counter, a phi of the
// header, that comes back unchanged on every back edge the retry path takes
// (the conflict branch continues before the i++). A bound of another kind
// (a field, a variable) is taken to move.
func advances(l *Loop, bin *ssa.BinOp) bool {
	phi := counterOf(l, bin)
	from, start := l.retryStart()
	if phi == nil || start == nil {
		return true
	}
	found := false
	// edge reports whether the back edge from pred to the header moves the
	// counter on.
	edge := func(pred *ssa.BasicBlock) bool {
		for i, p := range l.Header.Preds {
			if p == pred {
				found = true
				if phi.Edges[i] != phi {
					return true
				}
			}
		}
		return false
	}
	if start == l.Header {
		return edge(from) || !found
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{start}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || !l.Blocks[b] || b == l.Header {
			continue
		}
		seen[b] = true
		for _, s := range b.Succs {
			if s != l.Header {
				stack = append(stack, s)
			} else if edge(b) {
				return true
			}
		}
	}
	return !found
}

// ctxErrOf returns the context of a comparison ctx.Err() != nil, or nil.
func ctxErrOf(bin *ssa.BinOp) ssa.Value {
	for _, v := range []ssa.Value{bin.X, bin.Y} {
		if c, ok := v.(*ssa.Call); ok && c.Call.IsInvoke() && c.Call.Method.Name() == "Err" {
			if ctx, ok := model.ContextDone(c.Common()); ok {
				return ctx
			}
		}
	}
	return nil
}

// backoff reports whether a retry loop waits between attempts.
func (l *Loop) backoff() bool {
	for _, b := range l.order {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Select:
				return true
			case ssa.CallInstruction:
				if model.Waits(x.Common()) {
					return true
				}
			case *ssa.UnOp:
				if _, _, ok := model.TimerChan(x.X); ok && x.Op == token.ARROW {
					return true // for range time.Tick(d), <-ticker.C
				}
			}
		}
	}
	return false
}

// minWait returns how long a loop at least sleeps, where it says so with a
// time.Sleep (or a receive from time.After) of a duration whose lower
// bound is known; 0 otherwise.
func (l *Loop) minWait(fixed func(*ssa.Global) ssa.Value) time.Duration {
	// A wait counts only on every way round: its block dominates each
	// block that goes back to the header (if IsConflict(err) { continue }
	// before a sleep for other errors retries a conflict at once).
	latches := l.latches()
	var w time.Duration
	for _, b := range l.order {
		if len(latches) == 0 || !all(latches, b.Dominates) {
			continue
		}
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			switch model.CalleeName(c.Common()) {
			case "time.Sleep", "time.After":
				if args := c.Common().Args; len(args) == 1 {
					w = max(w, model.MinWait(args[0], fixed))
				}
			}
		}
	}
	return w
}

// latches returns the blocks of a loop that go back to its header.
func (l *Loop) latches() []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	for _, b := range l.order {
		if slices.Contains(b.Succs, l.Header) {
			out = append(out, b)
		}
	}
	return out
}

// fixedGlobal returns the one value a variable of this package holds: the
// value its declaration stores in the package initialiser, where no other
// function assigns it and nothing takes its address (flag.DurationVar(&v,
// ...), a pointer handed on). nil otherwise, and for variables of other
// packages, whose code is not seen. An assignment from another package
// (a test shortening a retry interval) is not seen either.
func (p *Package) fixedGlobal(g *ssa.Global) ssa.Value {
	if g.Pkg != p.Pkg {
		return nil
	}
	if p.fixedGlobals == nil {
		p.fixedGlobals = p.scanGlobals()
	}
	return p.fixedGlobals[g]
}

func (p *Package) scanGlobals() map[*ssa.Global]ssa.Value {
	init := p.Pkg.Func("init")
	fns := p.Funcs
	if init != nil {
		fns = append(slices.Clip(fns), init)
	}
	stored := map[*ssa.Global]ssa.Value{}
	bad := map[*ssa.Global]bool{}
	var ops []*ssa.Value
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ops = instr.Operands(ops[:0])
				for i, op := range ops {
					g, ok := (*op).(*ssa.Global)
					if !ok || g.Pkg != p.Pkg {
						continue
					}
					switch x := instr.(type) {
					case *ssa.UnOp:
						if x.Op == token.MUL {
							continue // a load
						}
					case *ssa.Store:
						if i == 0 && x.Addr == g && fn == init {
							if _, twice := stored[g]; twice {
								bad[g] = true
							}
							stored[g] = x.Val
							continue
						}
					}
					bad[g] = true
				}
			}
		}
	}
	for g := range bad {
		delete(stored, g)
	}
	return stored
}

func all(bs []*ssa.BasicBlock, f func(*ssa.BasicBlock) bool) bool {
	for _, b := range bs {
		if !f(b) {
			return false
		}
	}
	return true
}

// loopCallsInvalid reports whether a loop tests an error with
// apierrors.IsInvalid (a retry of a failed JSON patch test).
func loopCallsInvalid(l *Loop) bool {
	for _, b := range l.order {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && model.CallsIsInvalid(c.Common()) {
				return true
			}
		}
	}
	return false
}

// mentionsInvalid reports whether a function value tests for 422 Invalid.
func (p *Package) mentionsInvalid(v ssa.Value) bool {
	for _, fn := range p.funcValues(v) {
		for _, f := range withClosures(fn) {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					if c, ok := instr.(ssa.CallInstruction); ok && model.CallsIsInvalid(c.Common()) {
						return true
					}
				}
			}
		}
	}
	return false
}

// BoundedByContext reports whether a retry bounded only by its context is
// given one that ends: a poll or a loop that checks it is bounded by a
// context with a deadline, or by one the analysis cannot see (a
// parameter); only a context.Background, TODO or WithoutCancel is certainly
// unbounded. A context only given to the attempts bounds the retry when it
// is known to have a deadline.
func (p *Package) BoundedByContext(r *Retry) bool {
	if r.Ctx == nil {
		return false
	}
	k := p.ctxKind(r.Ctx)
	if r.CtxAttempts {
		return k == ctxDeadline
	}
	return k != ctxNever
}

// ctxEnd is what the analysis knows of when a context is done.
type ctxEnd uint8

const (
	ctxUnknown  ctxEnd = iota // a parameter, a field, a call it cannot follow
	ctxNever                  // Background, TODO, WithoutCancel
	ctxDeadline               // WithTimeout, WithDeadline, or derived from one
)

// ctxKind says when a context is done, followed through variables, closures
// and derived contexts: never if it may be a root context on one path, by a
// deadline if it is on every path.
func (p *Package) ctxKind(v ssa.Value) ctxEnd {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) ctxEnd
	all := func(vs []ssa.Value) ctxEnd {
		out := ctxDeadline
		if len(vs) == 0 {
			return ctxUnknown
		}
		for _, x := range vs {
			switch walk(x) {
			case ctxNever:
				return ctxNever
			case ctxUnknown:
				out = ctxUnknown
			}
		}
		return out
	}
	walk = func(v ssa.Value) ctxEnd {
		v = strip(v)
		if seen[v] {
			return ctxDeadline // a cycle: judged by the other edges
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Call:
			switch model.ContextOf(x.Common()) {
			case model.CtxRoot:
				return ctxNever
			case model.CtxDerived:
				return walk(x.Call.Args[0])
			}
		case *ssa.Extract:
			if c, ok := x.Tuple.(*ssa.Call); ok {
				switch model.ContextOf(c.Common()) {
				case model.CtxDeadline:
					return ctxDeadline
				case model.CtxDerived:
					return walk(c.Call.Args[0])
				}
			}
		case *ssa.UnOp:
			if isVariable(x.X) {
				return all(p.storedValues(root(x.X, p)))
			}
		case *ssa.FreeVar:
			if b, ok := p.bindings[x]; ok {
				return walk(b)
			}
		case *ssa.Phi:
			return all(x.Edges)
		}
		return ctxUnknown
	}
	return walk(v)
}

// MentionsInvalid reports whether a function (or its closures) tests an
// error with apierrors.IsInvalid.
func (p *Package) MentionsInvalid(fn *ssa.Function) bool { return p.mentionsInvalid(fn) }

// retriesEveryError reports whether a wait condition never gives up with an
// error: every return has a nil error, and some return false (try again).
func (p *Package) retriesEveryError(v ssa.Value) bool {
	fns := p.funcValues(v)
	if len(fns) == 0 {
		return false
	}
	for _, fn := range fns {
		again := false
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || len(ret.Results) != 2 {
				continue
			}
			if !isNil(ret.Results[1]) {
				return false
			}
			if c, ok := ret.Results[0].(*ssa.Const); ok && c.Value != nil && c.Value.String() == "false" {
				again = true
			}
		}
		if !again {
			return false
		}
	}
	return true
}

// RetryOfWrite returns the conflict retry that retries a write: the retry
// the write runs in, when the write's error reaches it (is returned from
// the retried function, tested in it, or is the error the retry loop tests).
// A write whose error is dropped is not retried, wherever it runs.
func (p *Package) RetryOfWrite(w *WriteSite) *Retry {
	r := p.RetryOf(w.Call)
	if r == nil || w.Err == nil {
		return nil
	}
	t := p.taint(w.Err)
	if r.Loop != nil {
		for _, a := range r.Loop.Attempts {
			if a == w.Call {
				return r
			}
		}
		for _, c := range t.conflictChecks {
			if c == r.Loop.Conflict {
				return r
			}
		}
		return nil
	}
	for _, s := range t.sinks {
		if within(s.Parent(), r.Fn) {
			return r
		}
	}
	for _, c := range t.conflictChecks {
		if within(c.Parent(), r.Fn) {
			return r
		}
	}
	for _, c := range t.nilChecks {
		if within(c.Parent(), r.Fn) {
			return r
		}
	}
	return nil
}

// delegates reports whether a wait condition calls a condition parameter
// (func() (bool, error)) of an enclosing function: a wrapper's condition that
// runs the caller's.
func (p *Package) delegates(v ssa.Value) bool {
	for _, fn := range p.funcValues(v) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok || c.Common().IsInvoke() || len(p.describeFunc(c.Common().Value)) == 0 {
					continue
				}
				if res := c.Common().Signature().Results(); res.Len() == 2 && model.IsError(res.At(1).Type()) {
					return true
				}
			}
		}
	}
	return false
}

// retriesOnError reports whether a wait condition answers (false, nil) -
// try again - when a call it makes fails: if err := op(); err != nil {
// return false, nil }. Conflicts are retried with every other error.
func (p *Package) retriesOnError(v ssa.Value) bool {
	for _, fn := range p.funcValues(v) {
		for _, b := range fn.Blocks {
			iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			bin, ok := iff.Cond.(*ssa.BinOp)
			if !ok || !(isNil(bin.X) || isNil(bin.Y)) || !model.IsError(bin.X.Type()) {
				continue
			}
			failure := failureSuccessor(iff)
			if failure == nil {
				continue
			}
			tryAgain := func(x *ssa.BasicBlock) bool {
				ret, ok := x.Instrs[len(x.Instrs)-1].(*ssa.Return)
				if !ok || len(ret.Results) != 2 || !isNil(ret.Results[1]) {
					return false
				}
				c, ok := ret.Results[0].(*ssa.Const)
				return ok && c.Value != nil && c.Value.String() == "false"
			}
			if p.reachedOnConflict(failure, nil, tryAgain) {
				return true
			}
		}
	}
	return false
}

// reachedOnConflict reports whether a walk from block from, taken when an
// error is a conflict, reaches a block for which found holds, staying in
// the blocks within allows (all, when nil): a test for another kind of
// error (if !isRetryable(err) { return false, err }, otherKindTest) is
// false for a conflict, so only its false side is followed.
func (p *Package) reachedOnConflict(from *ssa.BasicBlock, within map[*ssa.BasicBlock]bool, found func(*ssa.BasicBlock) bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if found(b) {
			return true
		}
		if seen[b] || within != nil && !within[b] {
			continue
		}
		seen[b] = true
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if whenFalse, ok := p.otherKindTest(iff.Cond); ok {
				stack = append(stack, b.Succs[whenFalse])
				continue
			}
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// otherKindTest recognises a condition that tests an error for a kind other
// than a conflict, so is false for one: a call the model knows as such a
// test (apierrors.IsTimeout, IsNotFound, utilnet.IsProbableEOF, ...), the
// flag of apierrors.SuggestsClientDelay, or a predicate of the package that
// returns true only on such tests (IsRetryableAPIError, copied from
// kubernetes' test utils); or its negation. It returns the successor of the
// If taken when the test is false.
func (p *Package) otherKindTest(cond ssa.Value) (int, bool) {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		if p.testsOtherKind(u.X, 0) {
			return 0, true
		}
		return 0, false
	}
	if p.testsOtherKind(cond, 0) {
		return 1, true
	}
	return 0, false
}

// testsOtherKind reports whether v is the result of a test of an error for
// a kind other than a conflict (see otherKindTest); depth bounds the
// predicates followed.
func (p *Package) testsOtherKind(v ssa.Value, depth int) bool {
	if e, ok := v.(*ssa.Extract); ok {
		v = e.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok || p.isConflictCall(call.Common()) {
		return false
	}
	if model.ErrorUseOf(call.Common()) == model.ErrTest {
		if _, builtin := call.Call.Value.(*ssa.Builtin); !builtin {
			return true
		}
	}
	fn := callee(call.Common())
	if depth > 0 || !p.local(fn) || !isPredicate(fn.Signature) || p.summary(fn).ConflictTest {
		return false
	}
	// Every return is a constant, and a true one only where a test of
	// another kind was true.
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		c, ok := ret.Results[0].(*ssa.Const)
		if !ok || c.Value == nil {
			return false
		}
		if c.Value.String() == "false" {
			continue
		}
		if len(b.Preds) == 0 {
			return false
		}
		for _, pred := range b.Preds {
			iff, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
			if !ok || pred.Succs[0] != b || !p.testsOtherKind(iff.Cond, depth+1) {
				return false
			}
		}
	}
	return true
}

// RV0FirstAttempt reports whether a read asks for ResourceVersion "0" only
// on the first attempt of a retry: the store of "0" runs in a branch on a
// flag that the branch clears (if firstTry { opts.ResourceVersion = "0";
// firstTry = false }), so that an attempt after a conflict reads from etcd.
func (p *Package) RV0FirstAttempt(read ssa.CallInstruction) bool {
	mc, ok := classify(read.Common())
	if !ok {
		return false
	}
	st := p.RV0Site(read.Common(), mc)
	if st == nil || st.Block() == nil || st.Parent() != read.Parent() || st.Block().Dominates(read.Block()) {
		return false
	}
	idom := st.Block().Idom()
	if idom == nil || len(idom.Instrs) == 0 {
		return false
	}
	iff, ok := idom.Instrs[len(idom.Instrs)-1].(*ssa.If)
	if !ok || !idom.Succs[0].Dominates(st.Block()) {
		return false
	}
	flag, ok := iff.Cond.(*ssa.UnOp)
	if !ok || flag.Op != token.MUL {
		return false
	}
	for _, b := range st.Parent().Blocks {
		if !idom.Succs[0].Dominates(b) {
			continue
		}
		for _, instr := range b.Instrs {
			if s, ok := instr.(*ssa.Store); ok && s.Addr == flag.X {
				if c, ok := s.Val.(*ssa.Const); ok && c.Value != nil && c.Value.String() == "false" {
					return true
				}
			}
		}
	}
	return false
}

// CacheFirstAttempt reports whether a cache read inside a retry runs only
// until an attempt fails: it is in a branch on a flag (if refresh { Get }
// else { lister.Get }) that the retried function sets the other way
// (refresh = true after a failed write), so that an attempt after a
// conflict reads from the API server.
func (p *Package) CacheFirstAttempt(read ssa.CallInstruction) bool {
	fn := read.Parent()
	for iff := range dominatingIfs(read.Block()) {
		idom := iff.Block()
		flag, ok := iff.Cond.(*ssa.UnOp)
		if !ok || flag.Op != token.MUL {
			continue
		}
		var want string // the value the flag is set to that leaves the branch of the read
		switch {
		case branchDominates(idom.Succs[1], read.Block()):
			want = "true"
		case branchDominates(idom.Succs[0], read.Block()):
			want = "false"
		default:
			continue
		}
		for _, bb := range fn.Blocks {
			for _, instr := range bb.Instrs {
				if s, ok := instr.(*ssa.Store); ok && s.Addr == flag.X && onErrorPath(bb) {
					if c, ok := s.Val.(*ssa.Const); ok && c.Value != nil && c.Value.String() == want {
						return true
					}
				}
			}
		}
	}
	return false
}

// branchDominates reports whether a branch target dominates b: a target
// with one predecessor, not a block the branch joins with the other.
func branchDominates(target, b *ssa.BasicBlock) bool {
	return len(target.Preds) == 1 && target.Dominates(b)
}

// onErrorPath reports whether a block runs only when an error is not nil:
// a dominating test err != nil (or err == nil's else) branches to it.
func onErrorPath(b *ssa.BasicBlock) bool {
	for iff := range dominatingIfs(b) {
		bin, ok := iff.Cond.(*ssa.BinOp)
		if !ok || !(isNil(bin.X) || isNil(bin.Y)) || !model.IsError(bin.X.Type()) {
			continue
		}
		if f := failureSuccessor(iff); f != nil && branchDominates(f, b) {
			return true
		}
	}
	return false
}

// dominatingIfs yields the branches that decide whether b runs: the If
// ending each block that dominates b, nearest first.
func dominatingIfs(b *ssa.BasicBlock) iter.Seq[*ssa.If] {
	return func(yield func(*ssa.If) bool) {
		for x := b; x != nil && x.Idom() != nil; x = x.Idom() {
			idom := x.Idom()
			if len(idom.Instrs) == 0 {
				continue
			}
			if iff, ok := idom.Instrs[len(idom.Instrs)-1].(*ssa.If); ok && !yield(iff) {
				return
			}
		}
	}
}
