package flow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// A watched controller is one the package builds with controller-runtime's
// builder, For a type, with no predicate on that watch but predicates that
// choose objects, not changes (predicates.go): every write of an
// object of the type, its own writes' conflicting writers' included, puts
// the object's key on the work queue again, and the next Reconcile reads
// the object anew and writes what it computes afresh.
type watched struct {
	forType types.Type             // the For type, *T
	forCall *ssa.Call              // the For call
	root    *ssa.Function          // Reconcile
	reach   map[*ssa.Function]bool // Reconcile and the functions of the package it calls, not as goroutines
}

// maxWatchDepth bounds how many helpers deep an object parameter is
// followed to the callers that pass it.
const maxWatchDepth = 3

// Rewatched returns the For call of a controller of the package whose
// Reconcile runs the write (a call in its body or in a function of the
// package it calls, not as a goroutine) and which reconciles the write's
// object's type with no event filter: a 409 of the write means another
// writer changed the object, and that change's event runs the reconcile
// again. nil when there is no such controller, or the analysis cannot tell.
func (p *Package) Rewatched(write ssa.CallInstruction, obj ssa.Value) *ssa.Call {
	if obj == nil {
		return nil
	}
	if p.watchedMemo == nil {
		// Non-nil once computed, also when the package has no controller.
		p.watchedMemo = append([]watched{}, p.watchedControllers()...)
	}
	if len(p.watchedMemo) == 0 {
		return nil
	}
	return p.rewatched(write.Parent(), obj, 0)
}

func (p *Package) rewatched(fn *ssa.Function, obj ssa.Value, depth int) *ssa.Call {
	v := strip(obj)
	if param, ok := v.(*ssa.Parameter); ok && types.IsInterface(v.Type()) {
		return p.rewatchedParam(fn, param, depth)
	}
	t := v.Type()
	for _, w := range p.watchedMemo {
		if w.reach[fn] && p.onlyFrom(fn, v, w) && types.Identical(t, w.forType) {
			return w.forCall
		}
	}
	return nil
}

// onlyFrom reports whether fn runs its write of obj only as part of the
// controller's Reconcile: it is Reconcile, or every call of it in the
// package is a call (not a go statement) in a function Reconcile runs, or
// passes nil for obj, and it is not used as a value. A helper also run by a
// monitoring goroutine is not.
func (p *Package) onlyFrom(fn *ssa.Function, obj ssa.Value, w watched) bool {
	if fn == w.root {
		return true
	}
	if mc := p.made[fn]; mc != nil {
		// A closure: called or deferred where it is made, in a function
		// Reconcile runs.
		for _, r := range ssax.Referrers(mc) {
			c, ok := r.(ssa.CallInstruction)
			if _, isGo := r.(*ssa.Go); !ok || isGo || c.Common().Value != mc {
				return false
			}
		}
		return w.reach[mc.Parent()]
	}
	if p.escapes(fn) {
		return false
	}
	for _, c := range p.callsOf[fn] {
		if prm, ok := obj.(*ssa.Parameter); ok {
			if k, ok := argFor(c.Common(), prm).(*ssa.Const); ok && k.IsNil() {
				continue // no object: the write of it does not run
			}
		}
		if _, isGo := c.(*ssa.Go); isGo || !w.reach[c.Parent()] {
			return false
		}
	}
	return true
}

// rewatchedParam is rewatched for an object that is an interface parameter
// of a helper: the object of every call of the helper in the package must
// be rewatched where it is passed.
func (p *Package) rewatchedParam(fn *ssa.Function, param *ssa.Parameter, depth int) *ssa.Call {
	if depth >= maxWatchDepth || fn.Parent() != nil || p.escapes(fn) {
		return nil
	}
	i := -1
	for j, q := range fn.Params {
		if q == param {
			i = j
		}
	}
	calls := p.callsOf[fn]
	if i < 0 || len(calls) == 0 {
		return nil
	}
	var found *ssa.Call
	for _, c := range calls {
		args := c.Common().Args
		if _, ok := c.(*ssa.Go); ok || i >= len(args) {
			return nil
		}
		if c.Common().IsInvoke() {
			return nil
		}
		fc := p.rewatched(c.Parent(), args[i], depth+1)
		if fc == nil {
			return nil
		}
		found = fc
	}
	return found
}

// watchedControllers finds the controllers the package builds with no
// event filter on their For watch, and what their Reconcile runs.
func (p *Package) watchedControllers() []watched {
	var out []watched
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok || model.BuilderCall(&c.Call) != model.BuilderComplete {
					continue
				}
				forCall, ok := p.unfilteredFor(model.Recv(&c.Call))
				if !ok || forCall == nil {
					continue
				}
				forType := ssax.ConcreteType(model.Arg(&forCall.Call, 0))
				if _, ok := forType.(*types.Pointer); !ok {
					continue
				}
				rec := p.reconcileOf(model.Arg(&c.Call, 0))
				if rec == nil {
					continue
				}
				out = append(out, watched{forType: forType, forCall: forCall, root: rec, reach: p.syncReach(rec)})
			}
		}
	}
	return out
}

// unfilteredFor walks a builder chain back from the builder Complete is
// called on: the For call when the chain has one For, no WithEventFilter
// (but of predicates that choose objects, not changes)
// and no For option that filters changes, but predicates that choose
// objects (predicates.go); ok is false when the chain has a part the
// model does not know (a builder kept in a field, or from a function of
// another package). A function of the package that takes a builder and
// returns it (bld = watchSources(bld, mgr)) is followed into.
func (p *Package) unfilteredFor(v ssa.Value) (forCall *ssa.Call, ok bool) {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, args []ssa.Value, depth int) bool
	walk = func(v ssa.Value, args []ssa.Value, depth int) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				if !walk(e, args, depth) {
					return false
				}
			}
			return true
		case *ssa.Parameter:
			// A parameter of a helper followed into: the caller's argument.
			for i, q := range x.Parent().Params {
				if q == x && i < len(args) && args[i] != nil {
					return walk(args[i], nil, depth-1)
				}
			}
			return false
		case *ssa.Call:
			switch model.BuilderCall(&x.Call) {
			case model.BuilderNew:
				return true
			case model.BuilderFor:
				if forCall != nil && forCall != x {
					return false
				}
				forCall = x
				if opts := model.Arg(&x.Call, 1); opts != nil {
					if c, isConst := opts.(*ssa.Const); !isConst || !c.IsNil() {
						els := ssax.VariadicElements(opts)
						if len(els) == 0 {
							return false
						}
						for _, e := range els {
							preds, ok := model.ForOptionPredicates(e.Value)
							if !ok {
								return false
							}
							for _, pr := range preds {
								if !p.choosesObjects(pr, 0) {
									return false
								}
							}
						}
					}
				}
				return walk(model.Recv(&x.Call), args, depth)
			case model.BuilderChain:
				return walk(model.Recv(&x.Call), args, depth)
			case model.BuilderFilter:
				if !p.choosesObjects(model.Arg(&x.Call, 0), 0) {
					return false
				}
				return walk(model.Recv(&x.Call), args, depth)
			case model.BuilderNone:
				fn := x.Call.StaticCallee()
				if fn == nil || fn.Pkg != p.Pkg || depth >= maxWatchDepth || len(fn.Blocks) == 0 {
					return false
				}
				rets := 0
				for _, b := range fn.Blocks {
					if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
						if len(ret.Results) != 1 || !walk(ret.Results[0], x.Call.Args, depth+1) {
							return false
						}
						rets++
					}
				}
				return rets > 0
			}
		}
		return false
	}
	if v == nil || !walk(v, nil, 0) {
		return nil, false
	}
	return forCall, true
}

// reconcileOf returns the Reconcile method of the package for the
// reconciler passed to Complete, or nil.
func (p *Package) reconcileOf(r ssa.Value) *ssa.Function {
	if r == nil {
		return nil
	}
	t := p.concreteType(r, 0)
	if t == nil {
		return nil
	}
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	for _, fn := range p.Funcs {
		recv := fn.Signature.Recv()
		if recv == nil || fn.Name() != "Reconcile" || fn.Synthetic != "" {
			continue
		}
		rt := recv.Type()
		if ptr, ok := rt.(*types.Pointer); ok {
			rt = ptr.Elem()
		}
		if n, ok := types.Unalias(rt).(*types.Named); ok && n.Origin() == named.Origin() {
			return fn
		}
	}
	return nil
}

// concreteType returns the dynamic type of an interface value where the
// package shows it: what is converted to the interface, and for a
// parameter of a function of the package that is not used as a value, or
// the result of a call of one, what every call passes or every return
// gives, when that is one type (add(mgr, r reconcile.Reconciler) called as
// add(mgr, newReconciler(mgr)), kubebuilder's first scaffold); nil when
// they differ. A value of a concrete type is its own.
func (p *Package) concreteType(v ssa.Value, depth int) types.Type {
	t := ssax.ConcreteType(v)
	if !types.IsInterface(t) || depth >= maxWatchDepth {
		return t
	}
	var vals []ssa.Value
	switch x := v.(type) {
	case *ssa.Parameter:
		fn := x.Parent()
		if fn.Parent() != nil || p.escapes(fn) || len(p.callsOf[fn]) == 0 {
			return t
		}
		for _, c := range p.callsOf[fn] {
			if c.Common().IsInvoke() {
				return t
			}
			a := argFor(c.Common(), x)
			if a == nil {
				return t
			}
			vals = append(vals, a)
		}
	case *ssa.Call, *ssa.Extract:
		// r := newReconciler(mgr), or r, err := newReconciler(mgr): what
		// its returns give that is not nil.
		call, idx := p.constructorOf(v)
		if call == nil {
			return t
		}
		fn := call.Call.StaticCallee()
		if !p.local(fn) || idx >= fn.Signature.Results().Len() {
			return t
		}
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && !isNil(ret.Results[idx]) {
				vals = append(vals, ret.Results[idx])
			}
		}
	default:
		return t
	}
	var found types.Type
	for _, a := range vals {
		at := p.concreteType(a, depth+1)
		if at == nil || types.IsInterface(at) || found != nil && !types.Identical(found, at) {
			return nil
		}
		found = at
	}
	if found == nil {
		return t
	}
	return found
}

// syncReach returns fn and the functions of the package it calls, directly
// or through others, in its own goroutine (calls and deferred calls, not
// go statements).
func (p *Package) syncReach(fn *ssa.Function) map[*ssa.Function]bool {
	in := map[*ssa.Function]bool{}
	for _, f := range p.Funcs {
		in[f] = true
	}
	reach := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if _, isGo := c.(*ssa.Go); isGo {
					continue
				}
				g := callee(c.Common())
				if g != nil && in[g] && !reach[g] {
					reach[g] = true
					work = append(work, g)
				}
			}
		}
	}
	return reach
}

// An informer watch is an event handler the package adds to a typed
// informer whose UpdateFunc tests the old object only to compare its
// resourceVersion with the new one's (the resync check) before it queues
// the object, or runs a sync function of the package on it itself: every
// write of an object of the type, a conflicting writer's included, puts
// its key on the work queue again, or runs that function again. Tests of
// the new object alone choose which objects the controller handles, as its
// AddFunc does, not which changes.
type informerWatch struct {
	objType types.Type // *T
	add     *ssa.Call  // the AddEventHandler call
	// runs is nil when the UpdateFunc queues the object; otherwise the
	// functions it calls itself, and what those call.
	runs map[*ssa.Function]bool
	// owners are the types whose methods work the queue: the receiver of
	// the UpdateFunc (or of the method it is a closure in), and the
	// structs it captures. The queue's worker is taken to be a method of
	// one of them. None when the UpdateFunc shows none.
	owners []*types.Named
}

// InformerRewatched returns the AddEventHandler call of an informer watch
// of the package on the type of obj that queues the object, or runs fn
// (fn, the function that writes obj, is called by what the UpdateFunc
// calls, not as a goroutine); nil if none.
func (p *Package) InformerRewatched(fn *ssa.Function, obj ssa.Value) *ssa.Call {
	if obj == nil {
		return nil
	}
	if p.informerMemo == nil {
		p.informerMemo = []informerWatch{}
		for call := range p.calls {
			c, ok := call.(*ssa.Call)
			if !ok {
				continue
			}
			h, t, ok := model.InformerHandler(&c.Call)
			if !ok {
				continue
			}
			if runs, owners, ok := p.everyUpdate(h); ok {
				p.informerMemo = append(p.informerMemo, informerWatch{objType: t, add: c, runs: runs, owners: owners})
			}
		}
	}
	t := strip(obj).Type()
	for _, w := range p.informerMemo {
		if !types.Identical(t, w.objType) {
			continue
		}
		if w.runs != nil && w.runs[fn] || w.runs == nil && (len(w.owners) == 0 || p.ownedBy(fn, w.owners, 0)) {
			return w.add
		}
	}
	return nil
}

// everyUpdate reports whether an event handler (a handler struct of funcs,
// or a pointer to one) has an UpdateFunc that acts on every update: it
// calls a work queue's Add or an enqueue... function, itself or through the
// functions of the package it calls, or a method of another package's
// queue wrapper (runs is nil, owners the types whose methods work the
// queue), or functions of the package (runs holds them and what they call), and
// neither its branches nor the arguments of its calls depend on the old
// object but through a comparison of the two resourceVersions.
func (p *Package) everyUpdate(h ssa.Value) (runs map[*ssa.Function]bool, owners []*types.Named, ok bool) {
	v := strip(h)
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if !model.IsEventHandlerFuncs(v.Type()) {
		return nil, nil, false
	}
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		v = ld.X
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil, nil, false
	}
	stores := updateFuncStores(alloc)
	if len(stores) > 1 {
		return nil, nil, false
	}
	var update ssa.Value
	if len(stores) == 1 {
		update = stores[0]
	}
	fns := p.funcValues(update)
	if len(fns) == 0 {
		return nil, nil, false
	}
	queues := true
	var called []*ssa.Function
	for _, fn := range fns {
		q, direct, ok := p.unfilteredUpdate(boundMethod(fn))
		if !ok {
			return nil, nil, false
		}
		owners = append(owners, ownerTypes(boundMethod(fn))...)
		queues = queues && q
		called = append(called, direct...)
	}
	runs = map[*ssa.Function]bool{}
	for _, fn := range called {
		for g := range p.syncReach(fn) {
			runs[g] = true
		}
	}
	if queues || p.queuesIn(runs) {
		// It queues the object, itself or through a function of the
		// package it gives the new object to (UpdateFunc: func(_, n any)
		// { c.onAdd(n) }, where onAdd queues it).
		return nil, owners, true
	}
	return runs, nil, len(runs) > 0
}

// ownerTypes returns the named types fn, an UpdateFunc, belongs to: its
// receiver's, or that of the method it is a closure in, and those of the
// pointers to named structs it captures.
func ownerTypes(fn *ssa.Function) []*types.Named {
	var out []*types.Named
	if n := receiverNamed(fn); n != nil {
		out = append(out, n)
	}
	for _, fv := range fn.FreeVars {
		if ptr, ok := types.Unalias(fv.Type()).(*types.Pointer); ok {
			if n, ok := types.Unalias(ptr.Elem()).(*types.Named); ok && n.Obj().Pkg() == fn.Pkg.Pkg {
				if _, isStruct := n.Underlying().(*types.Struct); isStruct {
					out = append(out, n.Origin())
				}
			}
		}
	}
	return out
}

// receiverNamed returns the named type of the receiver of fn, or of the
// method fn is a closure in; nil for a function.
func receiverNamed(fn *ssa.Function) *types.Named {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	t := types.Unalias(recv.Type())
	if ptr, ok := t.(*types.Pointer); ok {
		t = types.Unalias(ptr.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return n.Origin()
	}
	return nil
}

// ownedBy reports whether fn is a method of one of owners, or a closure in
// one, or a function of the package that only those call (a helper of the
// worker), within maxWatchDepth calls.
func (p *Package) ownedBy(fn *ssa.Function, owners []*types.Named, depth int) bool {
	if n := receiverNamed(fn); n != nil {
		return slices.Contains(owners, n)
	}
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	calls := p.callsOf[fn]
	if depth >= maxWatchDepth || len(calls) == 0 || p.escapes(fn) {
		return false
	}
	for _, c := range calls {
		if !p.ownedBy(c.Parent(), owners, depth+1) {
			return false
		}
	}
	return true
}

// queues reports whether a call adds to a work queue: Add of a workqueue,
// an enqueue... function, or a method of another package that does (a
// wrapper of a work queue, known by its fact).
func (p *Package) queues(c *ssa.CallCommon) bool {
	if model.IsWorkqueueAdd(c) || model.IsRequeueCall(c) {
		return true
	}
	if fn := c.StaticCallee(); fn != nil && !p.local(fn) && p.facts != nil {
		if obj := calleeObject(c); obj != nil {
			if ff := p.facts.FuncFact(obj); ff != nil {
				return ff.Queues
			}
		}
	}
	return false
}

// addsToWorkqueue reports whether fn calls Add (AddRateLimited, AddAfter)
// of a client-go work queue.
func addsToWorkqueue(fn *ssa.Function) bool {
	return callsAny(fn, model.IsWorkqueueAdd)
}

// queuesIn reports whether one of fns adds to a work queue.
func (p *Package) queuesIn(fns map[*ssa.Function]bool) bool {
	for fn := range fns {
		if callsAny(fn, p.queues) {
			return true
		}
	}
	return false
}

// callsAny reports whether fn makes a call that match accepts.
func callsAny(fn *ssa.Function, match func(*ssa.CallCommon) bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && match(c.Common()) {
				return true
			}
		}
	}
	return false
}

// unfilteredUpdate is everyUpdate for one UpdateFunc: whether it queues,
// and the functions of the package it calls (not as goroutines) when it
// does not.
func (p *Package) unfilteredUpdate(fn *ssa.Function) (queues bool, direct []*ssa.Function, ok bool) {
	if fn.Signature.Params().Len() != 2 || len(fn.Params) < 2 || len(fn.Blocks) == 0 {
		return false, nil, false
	}
	old := fn.Params[len(fn.Params)-2] // after the receiver of a method
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case ssa.CallInstruction:
				// A call given the old object may compare it with the
				// new one (c.enqueueIfChanged(old, new)).
				for _, a := range x.Common().Args {
					if dependsOn(a, old, map[ssa.Value]bool{}, 0) {
						return false, nil, false
					}
				}
				if model.IsWorkqueueAdd(x.Common()) || model.IsRequeueCall(x.Common()) {
					queues = true
				} else if g := callee(x.Common()); p.local(g) {
					if _, isGo := x.(*ssa.Go); !isGo {
						direct = append(direct, g)
					}
				}
			case *ssa.If:
				if dependsOn(x.Cond, old, map[ssa.Value]bool{}, 0) {
					return false, nil, false
				}
			}
		}
	}
	return queues, direct, queues || len(direct) > 0
}

// dependsOn reports whether v is computed from x, other than through a
// comparison of two resourceVersions for equality (or when it cannot tell:
// past maxDependDepth operands).
func dependsOn(v, x ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	if v == x {
		return true
	}
	if seen[v] {
		return false
	}
	seen[v] = true
	if depth >= maxDependDepth {
		return true
	}
	if b, ok := v.(*ssa.BinOp); ok && (b.Op == token.EQL || b.Op == token.NEQ) && model.IsRVRead(b.X) && model.IsRVRead(b.Y) {
		return false
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	for _, op := range instr.Operands(nil) {
		if *op != nil && dependsOn(*op, x, seen, depth+1) {
			return true
		}
	}
	return false
}

const maxDependDepth = 16
