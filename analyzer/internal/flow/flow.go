// Package flow computes, on SSA, what lostupdate's rules ask about Kubernetes
// objects and errors: where an object written comes from (its provenance),
// whether a call runs inside a conflict retry, what happens to the error of a
// write, and per-function summaries of these that become analysis facts.
//
// flow never reports. Its answers are conservative in one direction: when it
// cannot tell, it says Unknown, and rules do not report Unknown.
//
// One Package answers all of these, for its memos are shared (a summary
// needs provenance and retries, provenance needs summaries); each job has
// its files:
//
//   - provenance: lattice.go (the origin lattice, its laws and what the
//     rules read from it), origin.go (the origins of a value), events.go
//     (what changes an object's resourceVersion, and Object, the origins at
//     an instruction), feeding.go (the reads a value is computed from),
//     mutations.go (changes to objects between two points);
//   - retries: retry.go (retry helpers and hand-written retry loops);
//   - error fate: errflow.go (what becomes of the error of a write);
//   - write sites: writes.go (the calls that write, through helpers too);
//   - watches: watches.go (the controllers whose watch runs a reconcile
//     again after a conflicting write);
//   - summaries and facts: summary.go (what a function does with objects,
//     for its callers), facts.go (the summaries exported to other packages);
//   - flow.go: the Package, and control-flow and value helpers.
//
// The record of each write that the rules read is built from these by
// package writes.
package flow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Options are the user's additions to the client model.
type Options struct {
	// RetryHelpers are full function names (types.Func.FullName) of the
	// user's own conflict-retry helpers: each function argument they take is
	// run inside a conflict retry.
	RetryHelpers map[string]bool
	// SafeWriters are full function names of the user's write wrappers that
	// are known to be safe: calls of them are not writes, and what they do
	// inside is not reported.
	SafeWriters map[string]bool
	// Partial is set when some functions of the package are not analysed
	// (over the size cap): the calls they make are unknown, so no function
	// is taken for one that nothing calls.
	Partial bool
}

// FactSource gives access to the summaries of functions of other packages.
type FactSource interface {
	FuncFact(fn *types.Func) *FuncFact
}

// Package is the analysis state of one package.
type Package struct {
	Pkg   *ssa.Package
	Funcs []*ssa.Function // every function of the package with a body, closures included
	opts  Options
	facts FactSource

	bindings  map[*ssa.FreeVar]ssa.Value   // free variable -> value bound by the closure's MakeClosure
	boundTo   map[ssa.Value][]*ssa.FreeVar // inverse of bindings: the free variables each value is bound to
	made      map[*ssa.Function]*ssa.MakeClosure
	cellMemo  map[ssa.Value][]ssa.Value     // memo of cellAddrs
	storeMemo map[ssa.Value][]ssa.Value     // memo of storedValues
	anchors   map[anchorKey]ssa.Instruction // memo of anchor: the MakeClosure in outer leading to inner
	retried   map[*ssa.Function]*Retry      // functions run by a conflict retry (memo; nil: none)
	funcArgs  map[*ssa.Function][]funcArg   // where each function value is passed as an argument
	loops     map[*ssa.Function][]*Loop
	summaries map[*ssa.Function]*Summary
	computing map[*ssa.Function]bool
	index     map[ssa.Instruction]int
	objMemo   map[ssa.Value]*objInfo
	aliasMemo map[ssa.Value][]ssa.Value
	callsOf   map[*ssa.Function][]ssa.CallInstruction // calls of each function in the package (static, and through interfaces: addInvokes)
	// invokes: the calls through an interface in the package, by method
	// name (dispatchCalls finds those of a method with an exported name).
	invokes map[string][]ssa.CallInstruction
	methods map[string][]*ssa.Function // the package's dispatchable methods, by name
	// escaping, escapingObjs and invoked: functions used as values, and
	// method names called through an interface (computed on first use).
	escaping     map[*ssa.Function]bool
	escapingObjs map[types.Object]bool
	// assumeNil, while a caller of a function is judged by what follows
	// the call (callersFailAfter), is the forward slice of the call's error
	// result, which is nil on the path judged.
	assumeNil *errTaint
	// onlyNonNil, while the caller of a helper that loses its write's
	// error is judged (LostFate): a returned error that is a call's result
	// counts as a failure only where a test showed it is not nil.
	onlyNonNil bool
	// runAt: the deferred call whose object ObjectWhenRun asks about, at
	// a RunDefers; its own events do not run before it.
	runAt ssa.Instruction
	// judgedResult, at the same time, is the call's reconcile.Result
	// result: what the function returned on the path judged is no answer
	// to the failure (the zero result, or a requeue it asks after a
	// success too), so handing it on is none either.
	judgedResult ssa.Value
	condPhisMemo map[*ssa.Function]map[*ssa.Phi]bool // of condPhis
	invoked      map[string]bool
	ifaceValues  map[string]bool           // names of interface methods used as values
	fixedGlobals map[*ssa.Global]ssa.Value // of fixedGlobal (computed on first use)
	watchedMemo  []watched                 // of Rewatched (computed on first use)
	periodicFns  map[*ssa.Function]bool    // functions given to a periodic runner (of Periodic, computed on first use)
	informerMemo []informerWatch           // of InformerRewatched (computed on first use)
	statusMemo   map[*ssa.Function][]int   // of httpErrorReply: each helper's status parameters

	overwriteDepth int // recursion guard of overwritten
	rewriteDepth   int // recursion guard of staleRewrite
}

// New prepares the analysis of an SSA package. funcs are the source
// functions to analyse, closures included.
func New(pkg *ssa.Package, funcs []*ssa.Function, opts Options, facts FactSource) *Package {
	p := &Package{
		Pkg:       pkg,
		Funcs:     funcs,
		opts:      opts,
		facts:     facts,
		loops:     make(map[*ssa.Function][]*Loop),
		summaries: make(map[*ssa.Function]*Summary),
		computing: make(map[*ssa.Function]bool),
		index:     make(map[ssa.Instruction]int),
		objMemo:   make(map[ssa.Value]*objInfo),
		aliasMemo: make(map[ssa.Value][]ssa.Value),
		callsOf:   make(map[*ssa.Function][]ssa.CallInstruction),
		methods:   make(map[string][]*ssa.Function),
		anchors:   make(map[anchorKey]ssa.Instruction),
		cellMemo:  make(map[ssa.Value][]ssa.Value),
		storeMemo: make(map[ssa.Value][]ssa.Value),
	}
	invokes := map[string][]ssa.CallInstruction{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for i, instr := range b.Instrs {
				p.index[instr] = i
				if c, ok := instr.(ssa.CallInstruction); ok {
					cc := c.Common()
					if callee := cc.StaticCallee(); callee != nil {
						p.callsOf[callee] = append(p.callsOf[callee], c)
					} else if cc.IsInvoke() {
						invokes[cc.Method.Name()] = append(invokes[cc.Method.Name()], c)
					}
				}
			}
		}
	}
	p.invokes = invokes
	p.addInvokes(funcs, invokes)
	cs := ssax.ClosuresOf(funcs)
	p.bindings, p.made = cs.Bindings, cs.Made
	p.boundTo = make(map[ssa.Value][]*ssa.FreeVar)
	for fv, b := range p.bindings {
		p.boundTo[b] = append(p.boundTo[b], fv)
	}
	p.retried = make(map[*ssa.Function]*Retry)
	p.funcArgs = p.indexFuncArgs()
	return p
}

// addInvokes counts as calls of a method of the package with an unexported
// name the calls of an interface's method of that name that can dispatch to
// it: only the package can call such a method, so its calls, static and
// through interfaces, are all in the package. (A method with an exported
// name may be called from anywhere; dispatchCalls finds the calls of the
// package through interfaces that can reach it.)
func (p *Package) addInvokes(funcs []*ssa.Function, invokes map[string][]ssa.CallInstruction) {
	for _, fn := range funcs {
		if fn.Parent() != nil || !dispatchable(fn) {
			continue
		}
		p.methods[fn.Name()] = append(p.methods[fn.Name()], fn)
		if fn.Object().Exported() {
			continue
		}
		for _, c := range invokes[fn.Name()] {
			if dispatchesTo(c.Common(), fn) {
				p.callsOf[fn] = append(p.callsOf[fn], c)
			}
		}
	}
}

// dispatchCalls returns the calls in the package, through an interface,
// that can dispatch to the method fn with an exported name: some of its
// calls, since other packages may call it too. Only the deletion guard
// consults them (the package's calls of a helper say what it is for).
func (p *Package) dispatchCalls(fn *ssa.Function) []ssa.CallInstruction {
	if !dispatchable(fn) || !fn.Object().Exported() {
		return nil
	}
	var out []ssa.CallInstruction
	for _, c := range p.invokes[fn.Name()] {
		if dispatchesTo(c.Common(), fn) {
			out = append(out, c)
		}
	}
	return out
}

// dispatchesTo reports whether the interface method call c can dispatch to
// the method fn: fn's receiver type (or its pointer) implements the
// interface. An instance of a generic interface over the type parameters
// of the function that calls it (h Handler[T] in a generic reconcile loop)
// is instantiated with the types fn's methods take where the interface's
// take a type parameter.
func dispatchesTo(c *ssa.CallCommon, fn *ssa.Function) bool {
	if c.Method == nil || c.Method.Name() != fn.Name() {
		return false
	}
	t := fn.Signature.Recv().Type()
	_, isPtr := t.(*types.Pointer)
	implements := func(iface *types.Interface) bool {
		return types.Implements(t, iface) || !isPtr && types.Implements(types.NewPointer(t), iface)
	}
	iface, ok := c.Value.Type().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	if implements(iface) {
		return true
	}
	inst := instanceFor(c.Value.Type(), t)
	if inst == nil {
		return false
	}
	iface, ok = inst.Underlying().(*types.Interface)
	return ok && implements(iface)
}

// instanceFor instantiates the generic interface that named (an instance
// of it over type parameters) instantiates, with the type arguments that
// the methods of the type t give it: where a method of the generic
// interface takes or returns a type parameter T (or *T, or []T), t's method
// of the same name takes or returns that parameter's argument (or a pointer
// to it, or a slice). nil when named is not such an instance or some
// parameter is not given.
func instanceFor(named types.Type, t types.Type) types.Type {
	n, ok := types.Unalias(named).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 || n.Origin() == n {
		return nil
	}
	hasParam := false
	for i := 0; i < n.TypeArgs().Len(); i++ {
		if _, isParam := n.TypeArgs().At(i).(*types.TypeParam); isParam {
			hasParam = true
		}
	}
	if !hasParam {
		return nil
	}
	orig := n.Origin()
	giface, ok := orig.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	tparams := orig.TypeParams()
	args := make([]types.Type, tparams.Len())
	mset := types.NewMethodSet(t)
	if _, isPtr := t.(*types.Pointer); !isPtr {
		mset = types.NewMethodSet(types.NewPointer(t))
	}
	var bind func(gt, ct types.Type)
	bind = func(gt, ct types.Type) {
		switch g := gt.(type) {
		case *types.TypeParam:
			for i := 0; i < tparams.Len(); i++ {
				if tparams.At(i) == g && args[i] == nil {
					args[i] = ct
				}
			}
		case *types.Pointer: // job *T
			if c, ok := ct.(*types.Pointer); ok {
				bind(g.Elem(), c.Elem())
			}
		case *types.Slice:
			if c, ok := ct.(*types.Slice); ok {
				bind(g.Elem(), c.Elem())
			}
		}
	}
	for i := 0; i < giface.NumMethods(); i++ {
		gm := giface.Method(i)
		sel := mset.Lookup(gm.Pkg(), gm.Name())
		if sel == nil {
			return nil
		}
		gsig := gm.Type().(*types.Signature)
		csig, ok := sel.Type().(*types.Signature)
		if !ok || gsig.Params().Len() != csig.Params().Len() || gsig.Results().Len() != csig.Results().Len() {
			return nil
		}
		for j := 0; j < gsig.Params().Len(); j++ {
			bind(gsig.Params().At(j).Type(), csig.Params().At(j).Type())
		}
		for j := 0; j < gsig.Results().Len(); j++ {
			bind(gsig.Results().At(j).Type(), csig.Results().At(j).Type())
		}
	}
	for _, a := range args {
		if a == nil {
			return nil
		}
	}
	inst, err := types.Instantiate(nil, orig, args, true)
	if err != nil {
		return nil
	}
	return inst
}

// dispatchable reports whether fn is a method of a type that is not
// generic: addInvokes finds its calls through interfaces.
func dispatchable(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil || fn.Object() == nil {
		return false
	}
	base := recv.Type()
	if ptr, ok := base.(*types.Pointer); ok {
		base = ptr.Elem()
	}
	n, ok := types.Unalias(base).(*types.Named)
	return ok && n.TypeParams().Len() == 0 && n.TypeArgs().Len() == 0
}

// Caps on the walks of flow. Each bounds a walk along a chain of values or
// calls that real code keeps short, so that generated code or a cycle the
// walk's seen set misses cannot make it slow; at its cap a walk answers with
// what it found so far.
const (
	maxAliases           = 256 // aliases: values found forward from a value
	maxAliasDepth        = 8   // objectAliases: conversions and variables back to a definition
	maxFillDepth         = 8   // objectAt: copies followed back to the object copied (then Unknown)
	maxRV0Depth          = 8   // rv0Site: values back from a read's options to a ResourceVersion "0"
	maxParamReadDepth    = 3   // paramRead: callers followed to see that each passes a read
	maxMutationDepth     = 6   // mutationsOn: fields and elements nested under an object
	maxFieldChain        = 16  // readsObjectField: field and index addresses down to an object
	maxReadFromValues    = 64  // ReadFrom: values walked back from a value a patch sends
	maxFeedingValues     = 256 // Feeding: values walked back from a patch's data or name
	maxMarshalChain      = 4   // marshalledObject: variables between patch data and its encoder
	maxClientChain       = 16  // clientRoot: receivers, variables and fields back from a client call (CoreV1().Pods(ns))
	maxFakeChain         = 8   // isFakeValue: the same for a client passed as an argument
	maxConflictCallDepth = 2   // mentionsConflictFn: calls followed looking for a conflict test
)

// ---- control flow helpers ----

// before reports whether a may execute before b in one run of their function.
func (p *Package) mayReach(a, b ssa.Instruction) bool {
	fa, fb := a.Parent(), b.Parent()
	if fa != fb {
		return true
	}
	ba, bb := a.Block(), b.Block()
	if ba == bb && p.index[a] < p.index[b] {
		return true
	}
	return reachable(ba, bb, nil)
}

// reachesAvoiding reports whether b may run after a on a path that does not
// run avoid in between, when the three are instructions of one function
// (true otherwise).
func (p *Package) reachesAvoiding(a, b, avoid ssa.Instruction) bool {
	fn := a.Parent()
	if b.Parent() != fn || avoid.Parent() != fn {
		return true
	}
	ba, bb, bv := a.Block(), b.Block(), avoid.Block()
	ia, ib, iv := p.index[a], p.index[b], p.index[avoid]
	if ba == bb && ia < ib && !(bv == ba && ia < iv && iv < ib) {
		return true
	}
	if bv == ba && iv > ia {
		return false // leaving a's block runs avoid
	}
	var block map[*ssa.BasicBlock]bool
	if bv == bb {
		if iv < ib {
			return false // entering b's block runs avoid before b
		}
	} else {
		block = map[*ssa.BasicBlock]bool{bv: true}
	}
	return reachable(ba, bb, block)
}

// dominates reports whether a executes before b on every path to b. When b
// is in a closure of a's function, a must come before the closure is made.
func (p *Package) dominates(a, b ssa.Instruction) bool {
	if a.Parent() != b.Parent() {
		b = p.anchor(b, a.Parent())
		if b == nil {
			return false
		}
	}
	if a.Block() == b.Block() {
		return p.index[a] < p.index[b]
	}
	return a.Block().Dominates(b.Block())
}

// anchor returns the instruction of function outer that leads to instr:
// instr itself, or the MakeClosure that creates the closure instr is in.
func (p *Package) anchor(instr ssa.Instruction, outer *ssa.Function) ssa.Instruction {
	if instr == nil || instr.Parent() == outer {
		return instr
	}
	return p.anchorFn(instr.Parent(), outer)
}

type anchorKey struct{ inner, outer *ssa.Function }

// anchorFn returns the MakeClosure in outer that leads to the closure inner,
// or nil. Each answer is kept, so that closures nested N deep cost N steps
// once, not on every question about them.
func (p *Package) anchorFn(inner, outer *ssa.Function) ssa.Instruction {
	key := anchorKey{inner, outer}
	if a, ok := p.anchors[key]; ok {
		return a
	}
	var a ssa.Instruction
	if mc := p.made[inner]; mc != nil {
		if mc.Parent() == outer {
			a = mc
		} else {
			a = p.anchorFn(mc.Parent(), outer)
		}
	}
	p.anchors[key] = a
	return a
}

// reachable reports whether to can be reached from a successor of from
// without entering a block of avoid.
func reachable(from, to *ssa.BasicBlock, avoid map[*ssa.BasicBlock]bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), from.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == to {
			return true
		}
		if seen[b] || avoid[b] {
			continue
		}
		seen[b] = true
		stack = append(stack, b.Succs...)
	}
	return false
}

// within reports whether fn is inner or a closure nested in it.
func within(fn, outer *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		if fn == outer {
			return true
		}
	}
	return false
}

// ---- value helpers ----

// strip removes conversions that keep the identity of a value.
func strip(v ssa.Value) ssa.Value { return ssax.Strip(v) }

// callee returns the function a static call or a call of a closure invokes.
func callee(c *ssa.CallCommon) *ssa.Function {
	if c.IsInvoke() {
		return nil
	}
	return funcValue(c.Value)
}

// funcValue returns the function a function value is (a function, or a
// closure of one), or nil.
func funcValue(v ssa.Value) *ssa.Function {
	switch f := strip(v).(type) {
	case *ssa.Function:
		return f
	case *ssa.MakeClosure:
		fn, _ := f.Fn.(*ssa.Function)
		return fn
	}
	return nil
}

// funcObject returns the types.Func of a declared function or method (the
// generic origin for instances; the promoted method for a wrapper), or nil
// for closures.
func funcObject(fn *ssa.Function) *types.Func {
	if fn == nil {
		return nil
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, _ := fn.Object().(*types.Func)
	return obj
}

// FullName is the full name of a function for the user's configuration.
func FullName(fn *ssa.Function) string {
	return model.FunctionName(fn)
}

// local reports whether fn has a body in the analysed package.
func (p *Package) local(fn *ssa.Function) bool {
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.Pkg == p.Pkg
}

// body returns the function whose body describes a call to fn: fn itself or
// its generic origin.
func body(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil && len(o.Blocks) > 0 {
		return o
	}
	return fn
}

// Pos returns a position for an instruction, falling back to its function.
func Pos(instr ssa.Instruction) token.Pos {
	if c, ok := instr.(ssa.CallInstruction); ok && c.Common().Pos().IsValid() {
		return c.Common().Pos()
	}
	if instr.Pos().IsValid() {
		return instr.Pos()
	}
	if v, ok := instr.(ssa.Value); ok {
		for _, r := range ssax.Referrers(v) {
			if r.Pos().IsValid() {
				return r.Pos()
			}
		}
	}
	return instr.Parent().Pos()
}

// calls yields every call instruction of the analysed functions.
func (p *Package) calls(yield func(ssa.CallInstruction) bool) {
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					if !yield(c) {
						return
					}
				}
			}
		}
	}
}

// isClassified reports the model's view of a call.
func classify(c *ssa.CallCommon) (model.Call, bool) { return model.Classify(c) }

// isConflictCall reports whether a call tests an error for a conflict:
// apierrors.IsConflict, or a function (local or with a fact) that wraps it.
func (p *Package) isConflictCall(c *ssa.CallCommon) bool {
	if model.CallsIsConflict(c) {
		return true
	}
	fn := callee(c)
	if fn == nil {
		return false
	}
	return known(p, fn, func(s *Summary) bool { return s.ConflictTest }, func(f *FuncFact) bool { return f.ConflictTest })
}
