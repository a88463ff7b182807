package flow

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// WriteSite is a call that writes an existing object: a client Update,
// Patch or Apply, or a call of a helper that does.
type WriteSite struct {
	Call   ssa.CallInstruction
	Op     model.Op
	Client *model.Call // the client call, or nil for a helper
	Obj    ssa.Value   // the object written, or nil (a typed Patch names the object; a scope's object not seen)
	Err    ssa.Value   // the error value that carries a 409, or nil if it is not kept
	// ReadsFirst is set for calls that read the object themselves before
	// writing it (controllerutil.CreateOrUpdate).
	ReadsFirst bool
	// Replaces is set for an Update of an object the same function also
	// passes to a Create (itself or through a helper): the create-or-replace
	// idiom (Create, and on AlreadyExists Update the same object; or an
	// existence check, then Create or Update). The function claims the
	// whole object: it reads nothing it could take a resourceVersion from.
	Replaces bool
	Via      *types.Func // the helper, for writes through one
	ViaWrite WriteFact   // what the helper does with the object
	// RVFromArg is the argument whose resourceVersion the helper copies
	// into the object before it writes it (ViaWrite.RVFrom), or nil.
	RVFromArg ssa.Value
}

// Writes returns the write sites of a function (its closures are functions
// of their own).
// dispatchedLost returns, for the calls in fn through an interface, the
// writes of the package's methods they can dispatch to whose error those
// methods leave to their callers (ErrLost, LostToCallers): a chain of
// handlers that runs each step through an interface hands the object on to
// the steps, and what becomes of a step's failure is for the chain's
// callers to decide. Only a summary sees these; the writes are judged
// through the facts of the function that hands the object on.
func (p *Package) dispatchedLost(fn *ssa.Function) []*WriteSite {
	var out []*WriteSite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok || !c.Common().IsInvoke() {
				continue
			}
			cc := c.Common()
			for _, m := range p.methods[cc.Method.Name()] {
				if m == fn || !dispatchesTo(cc, m) {
					continue
				}
				for _, wf := range p.summary(m).Writes {
					// Param counts the receiver; an interface call's
					// arguments do not.
					if !wf.ErrLost || wf.ParamField != "" || wf.Param < 1 || wf.Param > len(cc.Args) {
						continue
					}
					out = append(out, &WriteSite{Call: c, Op: wf.Op, Obj: cc.Args[wf.Param-1], Via: funcObject(m), ViaWrite: wf})
				}
			}
		}
	}
	return out
}

func (p *Package) writesIn(fn *ssa.Function) []*WriteSite {
	if p.opts.SafeWriters[FullName(outermost(fn))] {
		return nil
	}
	var out []*WriteSite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				out = append(out, p.writeSites(c)...)
			}
		}
	}
	var created map[ssa.Value][]creation
	atHand := -1 // whether an object read is at hand, once asked: its resourceVersion could be copied
	for _, w := range out {
		if w.Op != model.OpUpdate || w.Obj == nil {
			continue
		}
		if atHand < 0 {
			atHand = 0
			if p.readsAtHand(fn) || p.readsAtHand(outermost(fn)) {
				atHand = 1
			}
		}
		if atHand == 1 {
			continue
		}
		if w.Via != nil && w.ViaWrite.Replaces {
			w.Replaces = true
			continue
		}
		if created == nil {
			created = p.createdIn(fn)
		}
		// Created under another view of it too: clientObj, ok :=
		// obj.(client.Object); Create(ctx, clientObj), then Update of obj.
		for _, a := range p.aliases(w.Obj) {
			for _, c := range created[ssax.Strip(a)] {
				if !p.mayReach(c.call, w.Call) || onFailure(c.err, w.Call) {
					w.Replaces = true
				}
			}
		}
		if !w.Replaces && p.createdBySibling(fn, w.Obj) {
			w.Replaces = true
		}
	}
	return out
}

// createdBySibling reports whether the object a closure updates, captured
// from the function that makes it, is created by another closure given to
// the same call: the create and update functions of an upsert helper
// (upsert(func() { Create(&role) }, func() { Update(&role) }), which calls
// the second when the first finds the object exists).
func (p *Package) createdBySibling(fn *ssa.Function, obj ssa.Value) bool {
	v := ssax.Strip(obj)
	captured := root(v, p)
	mc := p.made[fn]
	if captured == v || mc == nil {
		return false // not captured, or not a closure
	}
	for _, r := range ssax.Referrers(mc) {
		call, ok := r.(ssa.CallInstruction)
		if !ok {
			continue
		}
		for _, arg := range call.Common().Args {
			sib, ok := arg.(*ssa.MakeClosure)
			if !ok || sib == mc {
				continue
			}
			f, ok := sib.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			for c := range p.createdIn(f) {
				if root(c, p) == captured {
					return true
				}
			}
		}
	}
	return false
}

// creation is a call that creates an object, and its error.
type creation struct {
	call ssa.CallInstruction
	err  ssa.Value
}

// createdIn returns the objects a function passes to a Create, itself or
// through a helper that creates its parameter, as ssax.Strip gives them,
// with the calls that create them.
func (p *Package) createdIn(fn *ssa.Function) map[ssa.Value][]creation {
	out := map[ssa.Value][]creation{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			objs, err := p.createsOf(c)
			for _, v := range objs {
				v = ssax.Strip(v)
				out[v] = append(out[v], creation{call: c, err: err})
			}
		}
	}
	return out
}

// createsOf returns the objects a call creates (the object of a client
// Create, or the arguments a helper creates), and the call's error.
func (p *Package) createsOf(call ssa.CallInstruction) ([]ssa.Value, ssa.Value) {
	c := call.Common()
	if mc, ok := classify(c); ok {
		if mc.Op == model.OpCreate && mc.Obj >= 0 {
			return []ssa.Value{model.Arg(c, mc.Obj)}, errValue(call, mc.Err, mc.Result >= 0)
		}
		return nil, nil
	}
	fn := callee(c)
	if fn == nil {
		return nil, nil
	}
	params := known(p, fn, func(s *Summary) []int { return s.Creates }, func(f *FuncFact) []int { return f.Creates })
	var out []ssa.Value
	for _, i := range params {
		if i < len(c.Args) {
			out = append(out, c.Args[i])
		}
	}
	var err ssa.Value
	if idx := errorResult(fn.Signature); idx >= 0 && len(out) > 0 {
		err = errValue(call, idx, fn.Signature.Results().Len() > 1)
	}
	return out, err
}

// onFailure reports whether at runs only when the error err is not nil:
// in the branch of a test err != nil (err == nil's else), or of a test
// IsAlreadyExists(err).
func onFailure(err ssa.Value, at ssa.Instruction) bool {
	if err == nil {
		return false
	}
	for _, r := range ssax.Referrers(err) {
		var iff *ssa.If
		var branch *ssa.BasicBlock
		switch r := r.(type) {
		case *ssa.BinOp:
			for _, rr := range ssax.Referrers(r) {
				if i, ok := rr.(*ssa.If); ok && (isNil(r.X) || isNil(r.Y)) {
					iff, branch = i, failureSuccessor(i)
				}
			}
		case *ssa.Call:
			if fn := r.Common().StaticCallee(); fn != nil && fn.Name() == "IsAlreadyExists" {
				for _, rr := range ssax.Referrers(r) {
					if i, ok := rr.(*ssa.If); ok {
						iff, branch = i, i.Block().Succs[0]
					}
				}
			}
		}
		// The branch, not a block it joins with the success path.
		if iff != nil && branch != nil && branchDominates(branch, at.Block()) {
			return true
		}
	}
	return false
}

// readsAtHand reports whether a function reads an object it then uses: a
// controller-runtime read into an object, or a result of a read (of a
// client, or of a helper that returns one) that is used.
func (p *Package) readsAtHand(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if mc, ok := classify(call.Common()); ok {
				if mc.Op != model.OpRead && mc.Op != model.OpCacheRead {
					continue
				}
				if mc.Obj >= 0 {
					return true
				}
			}
			for _, v := range usedObjectResults(call) {
				for _, o := range p.Object(v, (*v.Referrers())[0]) {
					if o.Kind == Read || o.Kind == CacheRead {
						return true
					}
				}
			}
		}
	}
	return false
}

// usedObjectResults returns the results of a call of an object type that
// are used.
func usedObjectResults(call *ssa.Call) []ssa.Value {
	var out []ssa.Value
	if _, ok := call.Type().(*types.Tuple); !ok {
		if isObjectType(call.Type()) && len(*call.Referrers()) > 0 {
			out = append(out, call)
		}
		return out
	}
	for _, r := range ssax.Referrers(call) {
		if e, ok := r.(*ssa.Extract); ok && isObjectType(e.Type()) && len(*e.Referrers()) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// Writes returns every write site of the analysed functions.
func (p *Package) Writes() []*WriteSite {
	var out []*WriteSite
	for _, fn := range p.Funcs {
		out = append(out, p.writesIn(fn)...)
	}
	return out
}

func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

func (p *Package) writeSites(call ssa.CallInstruction) []*WriteSite {
	c := call.Common()
	if mc, ok := classify(c); ok {
		if !mc.Op.IsWrite() || p.fakeClient(c) || model.IsDryRun(c, mc) {
			return nil // a dry run persists nothing (it still fills the object in: events)
		}
		w := &WriteSite{Call: call, Op: mc.Op, Client: &mc}
		if mc.Obj >= 0 {
			w.Obj = model.Arg(c, mc.Obj)
		}
		if body := model.SubResourceBody(c, mc); body != nil {
			w.Obj = body // what is sent; the object argument only names it
		}
		w.Err = errValue(call, mc.Err, mc.Result >= 0)
		return []*WriteSite{w}
	}
	if f, ok := model.FuncOf(c); ok {
		if f.Kind == model.FuncReadWrite {
			return []*WriteSite{{Call: call, Op: f.Op, Obj: model.Arg(c, f.Obj), Err: errValue(call, 1, true), ReadsFirst: true}}
		}
		return nil
	}
	fn := callee(c)
	if fn == nil {
		return nil
	}
	if p.opts.SafeWriters[FullName(fn)] {
		return nil
	}
	obj := funcObject(fn)
	writes := known(p, fn, func(s *Summary) []WriteFact { return s.Writes }, func(f *FuncFact) []WriteFact { return f.Writes })
	var out []*WriteSite
	for _, wf := range writes {
		if wf.Param >= len(c.Args) {
			continue
		}
		if wf.Client >= 0 && wf.Client < len(c.Args) && p.isFakeValue(c.Args[wf.Client]) {
			continue // the helper writes through a fake client the caller made
		}
		written := c.Args[wf.Param]
		if wf.ParamField != "" {
			// A scope struct's Close: the object its constructor kept.
			// Unresolved (the scope is a parameter: a method of the
			// scope calling another), the object is not seen here.
			if written, _ = p.KeptObject(c.Args[wf.Param], wf.ParamField); written == nil {
				written = structField(c.Args[wf.Param], wf.ParamField)
			}
		}
		w := &WriteSite{Call: call, Op: wf.Op, Obj: written, Via: obj, ViaWrite: wf}
		if wf.RVFrom > 0 && wf.RVFrom-1 < len(c.Args) {
			w.RVFromArg = c.Args[wf.RVFrom-1]
		}
		if wf.SetsRVFor != "" && slices.Contains(strings.Split(wf.SetsRVFor, "\n"), types.TypeString(ssax.ConcreteType(written), nil)) {
			// The helper reads the object and copies the version it read
			// into the argument, for the argument's type.
			w.ReadsFirst = true
		}
		if idx := errorResult(fn.Signature); idx >= 0 && wf.ErrReturned {
			w.Err = errValue(call, idx, fn.Signature.Results().Len() > 1)
		}
		out = append(out, w)
	}
	return out
}

// errValue returns the error result of a call: the call itself when it
// returns only an error, else the Extract of result idx. nil when the call is
// a go or defer statement or the result is never extracted.
func errValue(call ssa.CallInstruction, idx int, tuple bool) ssa.Value {
	if idx < 0 {
		return nil
	}
	v, ok := call.(*ssa.Call)
	if !ok {
		return nil
	}
	if !tuple {
		return v
	}
	for _, r := range ssax.Referrers(v) {
		if e, ok := r.(*ssa.Extract); ok && e.Index == idx {
			return e
		}
	}
	return nil
}

// fakeClient reports whether a client call goes to a fake client
// (k8s.io/client-go/kubernetes/fake, controller-runtime's
// fake.NewClientBuilder, generated .../fake packages, or a helper that
// returns one): tests that drive a fake in one goroutine have no concurrent
// writer to lose.
func (p *Package) fakeClient(c *ssa.CallCommon) bool {
	root := p.clientRoot(c)
	if root != nil && model.IsFakeType(root.Type()) {
		return true
	}
	call, ok := root.(*ssa.Call)
	if !ok {
		return false
	}
	return p.makesFake(call.Common())
}

// makesFake reports whether a call (of a function, not a method) returns a
// fake client: a constructor of a .../fake package, or a function whose
// summary or fact says it returns one.
func (p *Package) makesFake(cc *ssa.CallCommon) bool {
	if fn := cc.StaticCallee(); fn != nil {
		if fn.Pkg != nil && model.IsFakePackage(fn.Pkg.Pkg.Path()) {
			return true
		}
		if p.local(fn) {
			return p.summary(fn).ReturnsFake
		}
	}
	if obj := calleeObject(cc); obj != nil {
		if obj.Pkg() != nil && model.IsFakePackage(obj.Pkg().Path()) {
			return true
		}
		if p.facts != nil {
			if ff := p.facts.FuncFact(obj); ff != nil {
				return ff.ReturnsFake
			}
		}
	}
	return false
}

// clientRoot follows the receiver of a client call back through the calls
// that derive clients (CoreV1(), Pods(ns), Resource(gvr), Status(),
// WithObjects(...).Build()), variables and fields of local struct literals,
// to where the client comes from: a call of a function, a parameter, or
// something the analysis cannot follow.
func (p *Package) clientRoot(c *ssa.CallCommon) ssa.Value {
	v := model.Recv(c)
	for depth := 0; v != nil && depth < maxClientChain; depth++ {
		switch x := strip(v).(type) {
		case *ssa.Call:
			if r := model.Recv(x.Common()); r != nil {
				v = r
				continue
			}
			return x
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return x
			}
			if isVariable(x.X) {
				vals := p.storedValues(root(x.X, p))
				if len(vals) != 1 {
					return x
				}
				v = vals[0]
				continue
			}
			// r.client of a local struct literal r := &reconciler{client: ...}
			if fa, ok := x.X.(*ssa.FieldAddr); ok {
				if val := literalField(fa); val != nil {
					v = val
					continue
				}
			}
			return x
		case *ssa.FreeVar:
			b, ok := p.bindings[x]
			if !ok {
				return x
			}
			v = b
		default:
			return x
		}
	}
	return v
}

// literalField returns the value stored into a field of a local struct
// literal, when there is exactly one.
func literalField(fa *ssa.FieldAddr) ssa.Value {
	base := fa.X
	if ld, ok := base.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if a, ok := ld.X.(*ssa.Alloc); ok {
			vals := []ssa.Value{}
			for _, r := range ssax.Referrers(a) {
				if st, ok := r.(*ssa.Store); ok && st.Addr == a {
					vals = append(vals, st.Val)
				}
			}
			if len(vals) == 1 {
				base = vals[0]
			}
		}
	}
	a, ok := base.(*ssa.Alloc)
	if !ok {
		return nil
	}
	return storedInField(a, fa.Field)
}

// storedInField returns the value stored into field idx of the struct a
// local variable a holds, when exactly one is.
func storedInField(a *ssa.Alloc, idx int) ssa.Value {
	if vals := storesInField(a, idx); len(vals) == 1 {
		return vals[0]
	}
	return nil
}

// storesInField returns the values stored into field idx of the struct a
// local variable a holds.
func storesInField(a *ssa.Alloc, idx int) []ssa.Value {
	var vals []ssa.Value
	for _, r := range ssax.Referrers(a) {
		f, ok := r.(*ssa.FieldAddr)
		if !ok || f.X != a || f.Field != idx {
			continue
		}
		for _, rr := range ssax.Referrers(f) {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == f {
				vals = append(vals, st.Val)
			}
		}
	}
	return vals
}

// isFakeValue reports whether a value is a fake client made in the analysed
// code (passed to a helper as its client).
func (p *Package) isFakeValue(v ssa.Value) bool {
	for depth := 0; v != nil && depth < maxFakeChain; depth++ {
		if model.IsFakeType(strip(v).Type()) {
			return true
		}
		switch x := strip(v).(type) {
		case *ssa.Call:
			if r := model.Recv(x.Common()); r != nil {
				v = r // WithObjects(...).Build()
				continue
			}
			return p.makesFake(x.Common())
		case *ssa.UnOp:
			if x.Op != token.MUL || !isVariable(x.X) {
				return false
			}
			vals := p.storedValues(root(x.X, p))
			if len(vals) != 1 {
				return false
			}
			v = vals[0]
		default:
			return false
		}
	}
	return false
}
