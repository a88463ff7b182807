package flow

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Periodic returns the function, fn or one that fn is a closure of, that a
// periodic runner of the package (wait.Until and its kin: model.PeriodicFn;
// a poll that is never done; a queue a periodic round feeds: seedPeriodic)
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
		p.seedPeriodic()
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
	// One call from a function run every period, or in a round of a loop
	// written by hand that waits for a timer each time round, is enough:
	// whoever else calls it (once at the start, say), the next period runs
	// it again.
	for _, c := range p.callsOf[fn] {
		if _, isGo := c.(*ssa.Go); !isGo && p.PeriodicLoop(c) != nil {
			return true
		}
		for g := c.Parent(); g != nil; g = g.Parent() {
			if g != fn && p.periodic(g, depth+1) {
				return true
			}
		}
	}
	return false
}

// seedPeriodic finds the functions run every period: those given to a
// periodic runner (model.PeriodicFn), the condition of a poll that never
// says it is done, and the functions that run the work a periodic round
// hands to a queue (queued).
func (p *Package) seedPeriodic() {
	p.periodicFns = map[*ssa.Function]bool{}
	for call := range p.calls {
		c := call.Common()
		for _, f := range p.funcValues(model.PeriodicFn(c)) {
			p.periodicFns[boundMethod(f)] = true
		}
		// wait.PollUntilContextCancel(ctx, d, true, func(...) (bool,
		// error) { ...; return false, nil }) runs its condition every d
		// until the context ends.
		if f, ok := model.FuncOf(c); ok && f.Kind == model.FuncRetry && f.Retries == model.RetriesByCond && !f.Bounded && f.Fn >= 0 && f.Fn < len(c.Args) {
			for _, fn := range p.funcValues(c.Args[f.Fn]) {
				if neverDone(fn) {
					p.periodicFns[boundMethod(fn)] = true
				}
			}
		}
	}
	for _, fn := range p.queued() {
		p.periodicFns[boundMethod(fn)] = true
	}
}

// neverDone reports whether a poll condition returns a constant false on
// every return: the poll runs it until its context ends.
func neverDone(fn *ssa.Function) bool {
	returns := 0
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			returns++
			if len(ret.Results) == 0 {
				return false
			}
			k, ok := ret.Results[0].(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.Bool || constant.BoolVal(k.Value) {
				return false
			}
		}
	}
	return returns > 0
}

// queued returns the functions that run the work a periodic round puts on
// a queue held in a field (s.tasks.EnqueueTask(x), c.events.Add(&Resync{})
// in a function run every period or in a periodic loop): the functions
// given to the call whose result the field holds (s.tasks =
// task.NewTaskQueue(s.sync)), and, in a consumer that takes the field's
// items and switches on their type, the functions of the package called in
// the case of the type of an item the round puts on it. They run one step
// after each round, so what they read they read again every period.
func (p *Package) queued() []*ssa.Function {
	// The fields a periodic round calls a method of, and the types of the
	// values it passes.
	poked := map[*types.Var][]types.Type{}
	for call := range p.calls {
		f := fieldOf(model.Recv(call.Common()))
		if f == nil || p.PeriodicLoop(call) == nil && p.Periodic(call.Parent()) == nil {
			continue
		}
		if poked[f] == nil {
			poked[f] = []types.Type{}
		}
		for _, a := range model.Args(call.Common()) {
			poked[f] = append(poked[f], ssax.ConcreteType(a))
		}
	}
	if len(poked) == 0 {
		return nil
	}
	var out []*ssa.Function
	for _, fn := range p.Funcs {
		var asserts []*ssa.TypeAssert
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					// s.tasks = task.NewTaskQueue(s.sync)
					if _, ok := poked[fieldOf(x.Addr)]; ok {
						if c, ok := x.Val.(*ssa.Call); ok {
							for _, a := range c.Call.Args {
								out = append(out, p.funcValues(a)...)
							}
						}
					}
				case *ssa.TypeAssert:
					if x.CommaOk {
						asserts = append(asserts, x)
					}
				}
			}
		}
		for _, ta := range asserts {
			// An item taken off a poked field (ev, done := c.events.Get())
			// of a type the round puts on it.
			x := strip(ta.X)
			if e, ok := x.(*ssa.Extract); ok {
				x = e.Tuple
			}
			from, ok := x.(*ssa.Call)
			if !ok || !anyIdentical(poked[fieldOf(model.Recv(from.Common()))], ta.AssertedType) {
				continue
			}
			if cases := caseOf(ta); cases != nil {
				out = append(out, p.calledUnder(fn, cases)...)
			}
		}
	}
	return out
}

// fieldOf returns the field a value is loaded from (s.queue), or the
// address of (&s.queue), or nil.
func fieldOf(v ssa.Value) *types.Var {
	if v == nil {
		return nil
	}
	v = strip(v)
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	fa, ok := v.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	return st.Field(fa.Field)
}

func anyIdentical(ts []types.Type, t types.Type) bool {
	for _, u := range ts {
		if types.Identical(u, t) {
			return true
		}
	}
	return false
}

// caseOf returns the block a type switch's case for a comma-ok type
// assertion starts (the branch taken when ok is true), or nil.
func caseOf(ta *ssa.TypeAssert) *ssa.BasicBlock {
	for _, r := range ssax.Referrers(ta) {
		x, ok := r.(*ssa.Extract)
		if !ok || x.Index != 1 {
			continue
		}
		for _, rr := range ssax.Referrers(x) {
			if i, ok := rr.(*ssa.If); ok && i.Cond == x {
				return i.Block().Succs[0]
			}
		}
	}
	return nil
}

// calledUnder returns the functions of the package called in the blocks
// of fn that start dominates.
func (p *Package) calledUnder(fn *ssa.Function, start *ssa.BasicBlock) []*ssa.Function {
	var out []*ssa.Function
	for _, b := range fn.Blocks {
		if !start.Dominates(b) {
			continue
		}
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if callee := c.Common().StaticCallee(); p.local(callee) {
					out = append(out, callee)
				}
			}
		}
	}
	return out
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
		if l.Blocks[at.Block()] && !l.Iterates && l.waitsEachRound() && l.goesRoundAfter(at) {
			return l
		}
	}
	return nil
}

// goesRoundAfter reports whether the loop may start another round after at:
// a way from at back to the header stays in the loop and takes no branch
// that the tests on every way to at rule out. In
//
//	for range 20 {
//		obj, err := Get(...)
//		if err != nil { ... } else if _, err := Update(obj); err != nil { log }
//		if err != nil { time.Sleep(d) } else { return nil }
//	}
//
// the Update's err shadows the Get's, which is nil where the Update runs:
// after the Update the loop returns, and never redoes it.
func (l *Loop) goesRoundAfter(at ssa.Instruction) bool {
	known := knownOutcomes(at.Block())
	seen := map[cfgEdge]bool{}
	var stack []cfgEdge
	push := func(b *ssa.BasicBlock) {
		for _, s := range b.Succs {
			if e := (cfgEdge{b, s}); l.Blocks[s] && !seen[e] {
				seen[e] = true
				stack = append(stack, e)
			}
		}
	}
	push(at.Block())
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.to == l.Header {
			return true
		}
		iff, ok := e.to.Instrs[len(e.to.Instrs)-1].(*ssa.If)
		if !ok || e.to.Succs[0] == e.to.Succs[1] {
			push(e.to)
			continue
		}
		val, decided := decidedOn(iff.Cond, e, known)
		for i, s := range e.to.Succs {
			if next := (cfgEdge{e.to, s}); l.Blocks[s] && !seen[next] && (!decided || val == (i == 0)) {
				seen[next] = true
				stack = append(stack, next)
			}
		}
	}
	return false
}

// A cfgEdge is the way from one block to a successor.
type cfgEdge struct{ from, to *ssa.BasicBlock }

// decidedOn returns the value a branch's condition has when its block is
// entered along an edge, when one of known tests it: the same condition, or
// a comparison (==, !=) of the same operands, a phi of the block standing
// for the value it takes along the edge.
func decidedOn(cond ssa.Value, e cfgEdge, known []outcome) (val, ok bool) {
	along := func(v ssa.Value) ssa.Value {
		if phi, ok := v.(*ssa.Phi); ok && phi.Block() == e.to {
			for i, p := range e.to.Preds {
				if p == e.from {
					return phi.Edges[i]
				}
			}
		}
		return v
	}
	cond = along(cond)
	x, isCmp := cond.(*ssa.BinOp)
	for _, o := range known {
		if o.cond == cond {
			return o.val, true
		}
		y, ok := o.cond.(*ssa.BinOp)
		if !isCmp || !ok || !isEquality(x.Op) || !isEquality(y.Op) {
			continue
		}
		xx, xy := along(x.X), along(x.Y)
		if sameOperand(xx, y.X) && sameOperand(xy, y.Y) || sameOperand(xx, y.Y) && sameOperand(xy, y.X) {
			return o.val == (x.Op == y.Op), true
		}
	}
	return false, false
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

// PeriodicRound returns, for an instruction that runs on each round of a
// periodic runner (in a hand-written periodic loop, PeriodicLoop, or in a
// function a periodic runner runs, Periodic), a test of whether another
// instruction runs in that same round: read there, an object is read again
// every period. nil when at runs on no period.
func (p *Package) PeriodicRound(at ssa.Instruction) func(ssa.Instruction) bool {
	l := p.PeriodicLoop(at)
	run := p.Periodic(at.Parent())
	if l == nil && run == nil {
		return nil
	}
	return func(site ssa.Instruction) bool {
		if l != nil && site.Parent() == l.Fn && l.Blocks[site.Block()] {
			return true
		}
		return run != nil && within(site.Parent(), run)
	}
}

// PeriodicArgs returns, for a parameter of an unexported function of the
// package that only the package's own calls can call, its argument at each
// call, each saying whether the round of the periodic runner the call runs
// in (PeriodicRound) reads or works out that argument again. ok is false
// when the function may be called from elsewhere, or some call of it runs
// on no period.
func (p *Package) PeriodicArgs(param *ssa.Parameter) (args []PeriodicArg, ok bool) {
	fn := param.Parent()
	if fn == nil || fn.Parent() != nil {
		return nil, false
	}
	if obj := fn.Object(); obj == nil || obj.Exported() || p.escapes(fn) {
		return nil, false
	}
	calls := p.callsOf[fn]
	if len(calls) == 0 {
		return nil, false
	}
	for _, c := range calls {
		in := p.PeriodicRound(c)
		arg := argFor(c.Common(), param)
		if in == nil || arg == nil || within(c.Parent(), fn) {
			return nil, false
		}
		args = append(args, PeriodicArg{Call: c, Fresh: p.freshIn(arg, c, in)})
	}
	return args, true
}

// A PeriodicArg is the argument a call run each period passes.
type PeriodicArg struct {
	Call ssa.CallInstruction
	// Fresh is true when the round of the call reads the argument or works
	// it out again: each of its origins is a read, or the result of a call
	// the analysis does not follow, in that round (not a field or a
	// variable, which may hold an object read long ago); or, for a value
	// that is no object (a map of them), it is the result of a call in that
	// round.
	Fresh bool
}

// freshIn reports whether a value is read or worked out again in a round.
func (p *Package) freshIn(v ssa.Value, at ssa.Instruction, in func(ssa.Instruction) bool) bool {
	origins := p.Object(v, at)
	if len(origins) == 0 {
		return p.resultIn(v, in, map[ssa.Value]bool{})
	}
	for _, o := range origins {
		_, call := o.Site.(ssa.CallInstruction)
		computed := o.Kind == Unknown && o.Param == nil && call
		if (o.Kind != Read && o.Kind != CacheRead && !computed) || o.Site == nil || !in(o.Site) {
			return false
		}
	}
	return true
}

// resultIn reports whether a value is the result of a call in a round, or
// an item of a list read in the round (a List, or a helper of the package
// that returns what one returns, whose items the analysis does not
// describe: go c.prune(ctx, item) for each item of c.list()), on every way
// into it. An item of any other list (a copy of what a field holds) may
// be as old as the field. A value met again (a loop's phi) adds nothing.
func (p *Package) resultIn(v ssa.Value, in func(ssa.Instruction) bool, seen map[ssa.Value]bool) bool {
	if x, ok := v.(*ssa.Extract); ok {
		v = x.Tuple
	}
	if c, ok := v.(*ssa.Call); ok {
		return in(c)
	}
	return p.itemReadIn(v, in, seen)
}

func (p *Package) itemReadIn(v ssa.Value, in func(ssa.Instruction) bool, seen map[ssa.Value]bool) bool {
	var list ssa.Value
	switch x := v.(type) {
	case *ssa.UnOp:
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			list = ia.X
		}
	case *ssa.Extract, *ssa.Index, *ssa.Lookup:
		list = listOf(v)
	case *ssa.Phi:
		return p.allEdges(x, seen, func(e ssa.Value) bool { return p.itemReadIn(e, in, seen) })
	}
	return list != nil && p.listReadIn(list, in, seen, 0)
}

// listOf returns the map or slice an element access reads from: l[i],
// &l[i], m[k], or a value of a range over a map. nil for other values.
func listOf(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.Lookup:
		return x.X
	case *ssa.Index:
		return x.X
	case *ssa.IndexAddr:
		return x.X
	case *ssa.Extract:
		if next, ok := x.Tuple.(*ssa.Next); ok {
			if r, ok := next.Iter.(*ssa.Range); ok {
				return r.X
			}
		}
	}
	return nil
}

// listReadIn reports whether a list is what a read in the round returns,
// directly or through helpers of the package (maxCallerDepth deep).
func (p *Package) listReadIn(v ssa.Value, in func(ssa.Instruction) bool, seen map[ssa.Value]bool, depth int) bool {
	idx := 0
	if x, ok := v.(*ssa.Extract); ok {
		v, idx = x.Tuple, x.Index
	}
	switch x := v.(type) {
	case *ssa.Phi:
		return p.allEdges(x, seen, func(e ssa.Value) bool { return p.listReadIn(e, in, seen, depth) })
	case *ssa.Call:
		if in != nil && !in(x) {
			return false
		}
		if mc, ok := classify(x.Common()); ok {
			return mc.Result == idx && (mc.Op == model.OpRead || mc.Op == model.OpCacheRead)
		}
		fn := callee(x.Common())
		if !p.local(fn) || depth >= maxCallerDepth {
			return false
		}
		rets := 0
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				if idx >= len(ret.Results) || !p.listReadIn(ret.Results[idx], nil, seen, depth+1) {
					return false
				}
				rets++
			}
		}
		return rets > 0
	}
	return false
}

// allEdges reports whether every non-nil edge of a phi (there is one) has
// a property; a phi met again adds nothing.
func (p *Package) allEdges(phi *ssa.Phi, seen map[ssa.Value]bool, has func(ssa.Value) bool) bool {
	if seen[phi] {
		return true
	}
	seen[phi] = true
	some := false
	for _, e := range phi.Edges {
		if isNil(e) {
			continue
		}
		if !has(e) {
			return false
		}
		some = true
	}
	return some
}

// ParamOf returns the parameter an Unknown origin is, or whose element it
// is: a map or slice parameter's element (outdated[name], or a value of a
// range over it). nil otherwise.
func ParamOf(o Origin) *ssa.Parameter {
	if o.Kind != Unknown {
		return nil
	}
	if o.Param != nil {
		return o.Param
	}
	v, _ := o.Site.(ssa.Value)
	list := listOf(v)
	// An item of the Items of a list object given (pods.Items[i]).
	if ld, ok := list.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if fa, ok := ld.X.(*ssa.FieldAddr); ok && FieldName(fa) == "Items" {
			list = fa.X
		}
	}
	prm, _ := list.(*ssa.Parameter)
	return prm
}
