package flow

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// aliases returns the values that refer to the same object as v, found
// forward from v: conversions, phis, and the loads of every variable v is
// stored in (closures included).
func (p *Package) aliases(v ssa.Value) []ssa.Value {
	if as, ok := p.aliasMemo[v]; ok {
		return as
	}
	seen := map[ssa.Value]bool{v: true}
	out := []ssa.Value{v}
	// Asked again while being found (a struct stored into a field of what
	// it holds), v has only itself.
	p.aliasMemo[v] = out[:1:1]
	for i := 0; i < len(out) && i < maxAliases; i++ {
		x := out[i]
		refs := x.Referrers()
		if refs == nil {
			continue
		}
		push := func(y ssa.Value) {
			if y != nil && !seen[y] {
				seen[y] = true
				out = append(out, y)
			}
		}
		for _, ld := range p.unsetFieldLoads(x) {
			push(ld)
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.MakeInterface:
				push(r)
			case *ssa.ChangeInterface:
				push(r)
			case *ssa.ChangeType:
				push(r)
			case *ssa.TypeAssert:
				if r.CommaOk {
					for _, rr := range ssax.Referrers(r) {
						if e, ok := rr.(*ssa.Extract); ok && e.Index == 0 {
							push(e)
						}
					}
				} else {
					push(r)
				}
			case *ssa.Phi:
				push(r)
			case *ssa.Store:
				if r.Val == x && isVariable(r.Addr) {
					for _, addr := range p.cellAddrs(root(r.Addr, p)) {
						for _, rr := range ssax.Referrers(addr) {
							if ld, ok := rr.(*ssa.UnOp); ok && ld.Op == token.MUL {
								push(ld)
							}
						}
					}
				}
				if fa, ok := r.Addr.(*ssa.FieldAddr); ok && r.Val == x {
					for _, ld := range p.soleFieldLoads(fa, x) {
						push(ld)
					}
				}
			case *ssa.MakeClosure:
				// Captured by reference: the closure's free variable is the same object.
				if fn, ok := r.Fn.(*ssa.Function); ok {
					for i, b := range r.Bindings {
						if b == x && i < len(fn.FreeVars) {
							push(fn.FreeVars[i])
						}
					}
				}
			case *ssa.Call:
				if model.ObjectMethod(r.Common()) == model.GetObjectMeta && model.Recv(r.Common()) == x {
					push(r) // x.(metav1.ObjectMetaAccessor).GetObjectMeta(): its metadata, in place
				}
				if f, ok := model.FuncOf(r.Common()); ok && f.Kind == model.FuncAlias && model.Arg(r.Common(), f.Src) == x {
					for _, rr := range ssax.Referrers(r) {
						if e, ok := rr.(*ssa.Extract); ok && e.Index == 0 {
							push(e)
						}
					}
				}
			}
		}
	}
	p.aliasMemo[v] = out
	return out
}

// soleFieldLoads returns, when x is the only value the function stores into
// a reference field of the program's own struct (r.Instance = &T{}), the
// loads of that field of the same struct: each use of r.Instance loads it
// again, and a read into one load (Get(ctx, key, r.Instance)) fills what
// the others refer to. A field given two values has no single object.
func (p *Package) soleFieldLoads(fa *ssa.FieldAddr, x ssa.Value) []ssa.Value {
	vals, ok := p.wrapperField(fa)
	if !ok {
		return nil
	}
	for _, v := range vals {
		if v != x {
			return nil
		}
	}
	var loads []ssa.Value
	for _, f := range p.sameFields(fa) {
		for _, rr := range ssax.Referrers(f) {
			if ld, isLoad := rr.(*ssa.UnOp); isLoad && ld.Op == token.MUL {
				loads = append(loads, ld)
			}
		}
	}
	return loads
}

// unsetFieldLoads returns, for a load of a reference field of the
// program's own struct (cand.obj) that the function never sets, the other
// loads of that field of the same struct: each use of cand.obj loads it
// again, and all refer to the one object the struct holds.
func (p *Package) unsetFieldLoads(x ssa.Value) []ssa.Value {
	ld, fa := fieldLoad(x)
	if fa == nil {
		return nil
	}
	if vals, ok := p.wrapperField(fa); !ok || len(vals) > 0 || p.structReset(fa) {
		return nil
	}
	var loads []ssa.Value
	for _, f := range p.sameFields(fa) {
		for _, rr := range ssax.Referrers(f) {
			if l, isLoad := rr.(*ssa.UnOp); isLoad && l.Op == token.MUL && l != ld {
				loads = append(loads, l)
			}
		}
	}
	return loads
}

// fieldLoad returns, for a load of a field (obj.f, a load through the
// field's address), the load and the address; nils for other values.
func fieldLoad(v ssa.Value) (*ssa.UnOp, *ssa.FieldAddr) {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, nil
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return nil, nil
	}
	return ld, fa
}

// structReset reports whether the function may put another object into
// fa's field other than by a store to it: it stores the whole struct
// (*cand = candidate{...}), or gives the struct to a function of the
// package that stores into that field of its parameter (cand.detach()).
func (p *Package) structReset(fa *ssa.FieldAddr) bool {
	for _, base := range p.aliases(fa.X) {
		for _, r := range ssax.Referrers(base) {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr == base {
					return true
				}
			case ssa.CallInstruction:
				fn := r.Common().StaticCallee()
				if !p.local(fn) {
					continue
				}
				for i, a := range r.Common().Args {
					if a == base && i < len(fn.Params) && setsField(fn.Params[i], fa.Field) {
						return true
					}
				}
			}
		}
	}
	return false
}

// setsField reports whether a function stores into a field of the struct
// its parameter points to, or stores the whole struct.
func setsField(prm *ssa.Parameter, field int) bool {
	for _, r := range ssax.Referrers(prm) {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == prm {
				return true
			}
		case *ssa.FieldAddr:
			if r.Field != field {
				continue
			}
			for _, rr := range ssax.Referrers(r) {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == r {
					return true
				}
			}
		}
	}
	return false
}

// isVariable reports whether addr is a variable: a local or a captured one.
func isVariable(addr ssa.Value) bool {
	switch addr.(type) {
	case *ssa.Alloc, *ssa.FreeVar:
		return true
	}
	return false
}

// root maps a captured variable to the variable of the enclosing function.
func root(addr ssa.Value, p *Package) ssa.Value {
	for {
		fv, ok := addr.(*ssa.FreeVar)
		if !ok {
			return addr
		}
		b, ok := p.bindings[fv]
		if !ok {
			return addr
		}
		addr = b
	}
}

// eventsOn returns the instructions that change the resourceVersion of the
// object a refers to.
func (p *Package) eventsOn(a ssa.Value) []*event {
	refs := a.Referrers()
	if refs == nil {
		return nil
	}
	var evs []*event
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			evs = append(evs, p.fieldEvents(r)...)
		case *ssa.Store:
			if r.Addr == a && isObjectMemory(a.Type()) && model.IsObject(a.Type()) {
				evs = append(evs, &event{kind: evFill, instr: r, src: r.Val})
			}
			if r.Val == a {
				evs = append(evs, p.handedOn(r, a)...)
			}
		case *ssa.MakeInterface:
			// Reconciled: &secret, a field of type client.Object.
			for _, rr := range ssax.Referrers(r) {
				if st, ok := rr.(*ssa.Store); ok && st.Val == r {
					evs = append(evs, p.handedOn(st, a)...)
				}
			}
		case ssa.CallInstruction:
			if e := p.callEvent(r, a); e != nil {
				evs = append(evs, e)
			}
		}
	}
	return evs
}

// handedOn returns, for a pointer to an object stored into a field of the
// program's own struct (reconciler.Params{Reconciled: &secret}), each call
// of a helper given that struct: the helper may read into the object through
// the field, so after the call its provenance is not known. Facts describe
// what a helper does with its parameters, not with their fields.
func (p *Package) handedOn(st *ssa.Store, obj ssa.Value) []*event {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok || !isObjectMemory(obj.Type()) || !model.IsObject(obj.Type()) || !wrapper(fa.X) {
		return nil
	}
	holders := []ssa.Value{fa.X}
	for _, r := range ssax.Referrers(fa.X) {
		if ld, ok := r.(*ssa.UnOp); ok && ld.Op == token.MUL {
			holders = append(holders, ld)
		}
	}
	var evs []*event
	for _, h := range holders {
		for _, r := range ssax.Referrers(h) {
			call, ok := r.(ssa.CallInstruction)
			if !ok || !slices.Contains(call.Common().Args, h) {
				continue
			}
			if _, client := classify(call.Common()); client {
				continue
			}
			evs = append(evs, &event{kind: evFill, instr: call, origin: Origin{Kind: Unknown, Site: call}})
		}
	}
	return evs
}

// fieldEvents finds resourceVersion changes through a field of an object:
// obj.ResourceVersion = x, obj.ObjectMeta = m, obj.ObjectMeta.SetResourceVersion(x),
// unstructured.SetNestedField(u.Object, x, "metadata", "resourceVersion").
func (p *Package) fieldEvents(fa *ssa.FieldAddr) []*event {
	var evs []*event
	switch FieldName(fa) {
	case "ObjectMeta":
		for _, r := range ssax.Referrers(fa) {
			switch r := r.(type) {
			case *ssa.FieldAddr:
				evs = append(evs, p.fieldEvents(r)...)
			case *ssa.Store:
				if r.Addr == fa {
					if e := p.metaEvent(r); e != nil {
						evs = append(evs, e)
					}
				}
			case ssa.CallInstruction:
				if c, ok := r.(*ssa.Call); ok && model.ObjectMethod(c.Common()) == model.GetObjectMeta {
					// obj.GetObjectMeta().SetResourceVersion(x), through
					// the method ObjectMeta promotes.
					for _, a := range p.aliases(c) {
						evs = append(evs, p.eventsOn(a)...)
					}
					continue
				}
				if e := p.callEvent(r, fa); e != nil {
					evs = append(evs, e)
				}
			}
		}
	case "ResourceVersion":
		for _, r := range ssax.Referrers(fa) {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				evs = append(evs, p.rvEvent(st, st.Val))
			}
		}
	case "Object":
		for _, r := range ssax.Referrers(fa) {
			ld, ok := r.(*ssa.UnOp)
			if !ok || ld.Op != token.MUL {
				continue
			}
			for _, rr := range ssax.Referrers(ld) {
				switch rr := rr.(type) {
				case ssa.CallInstruction:
					if e := p.nestedRVEvent(rr, ld); e != nil {
						evs = append(evs, e)
					}
				case *ssa.Lookup:
					evs = append(evs, p.rawRVEvents(rr)...)
				}
			}
		}
	}
	return evs
}

// rawRVEvents recognises a resourceVersion set in the map of an
// Unstructured by hand: u.Object["metadata"].(map[string]any)["resourceVersion"] = v.
func (p *Package) rawRVEvents(l *ssa.Lookup) []*event {
	if k, ok := l.Index.(*ssa.Const); !ok || k.Value == nil || k.Value.ExactString() != `"metadata"` {
		return nil
	}
	var evs []*event
	for _, r := range ssax.Referrers(l) {
		ta, ok := r.(*ssa.TypeAssert)
		if !ok || ta.CommaOk {
			continue
		}
		for _, rr := range ssax.Referrers(ta) {
			u, ok := rr.(*ssa.MapUpdate)
			if !ok || u.Map != ta {
				continue
			}
			if k, ok := u.Key.(*ssa.Const); ok && k.Value != nil && k.Value.ExactString() == `"resourceVersion"` {
				evs = append(evs, p.rvEvent(u, strip(u.Value)))
			}
		}
	}
	return evs
}

// nestedRVEvent recognises unstructured.SetNestedField / RemoveNestedField of
// metadata.resourceVersion on the map of an Unstructured.
func (p *Package) nestedRVEvent(c ssa.CallInstruction, m ssa.Value) *event {
	cc := c.Common()
	op, _ := model.NestedOpOf(cc)
	args := cc.Args
	if len(args) == 0 || args[0] != m {
		return nil
	}
	var path []ssa.Value
	var val ssa.Value
	switch op {
	case model.NestedRemove:
		if len(args) == 2 {
			path = variadicConsts(args[1])
		}
	case model.NestedSet:
		if len(args) == 3 {
			val, path = args[1], variadicConsts(args[2])
		}
	default:
		return nil
	}
	if len(path) != 2 {
		return nil
	}
	s0, _ := model.ConstString(path[0])
	s1, _ := model.ConstString(path[1])
	if s0 != "metadata" || s1 != "resourceVersion" {
		return nil
	}
	if val == nil {
		return &event{kind: evClear, instr: c}
	}
	return p.rvEvent(c, strip(val))
}

// variadicConsts returns the values stored into the array behind a variadic
// argument, in order.
func variadicConsts(v ssa.Value) []ssa.Value {
	byIndex := map[int64]ssa.Value{}
	var max int64 = -1
	for _, el := range ssax.VariadicElements(v) {
		byIndex[el.Index] = el.Value // the last store of an element
		if el.Index > max {
			max = el.Index
		}
	}
	var vals []ssa.Value
	for i := int64(0); i <= max; i++ {
		if v, ok := byIndex[i]; ok {
			vals = append(vals, v)
		}
	}
	return vals
}

// rvEvent classifies a new resourceVersion value: "" (or the empty version of
// a built object) clears it, anything else sets it.
func (p *Package) rvEvent(instr ssa.Instruction, val ssa.Value) *event {
	if s, ok := model.ConstString(val); ok && s == "" {
		return &event{kind: evClear, instr: instr}
	}
	if src, read := rvSource(val); src != nil {
		return &event{kind: evSetRVFrom, instr: instr, src: src, rvRead: read}
	}
	return &event{kind: evSetRV, instr: instr}
}

// rvSource returns the object whose resourceVersion v is (x.ResourceVersion
// or x.GetResourceVersion()) and the instruction that reads it, or nil.
func rvSource(v ssa.Value) (ssa.Value, ssa.Instruction) {
	v = strip(v)
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && FieldName(fa) == "ResourceVersion" {
			if inner, ok := fa.X.(*ssa.FieldAddr); ok && FieldName(inner) == "ObjectMeta" {
				return inner.X, x
			}
			return fa.X, x
		}
	case *ssa.Call:
		if model.ObjectMethod(x.Common()) == model.GetResourceVersion {
			return metaOwner(model.Recv(x.Common())), x
		}
	}
	return nil, nil
}

// metaOwner returns the object whose metadata v is, when v is
// obj.GetObjectMeta() (on the object, or on its ObjectMeta through the
// promoted method), or v itself.
func metaOwner(v ssa.Value) ssa.Value {
	for range maxFieldChain {
		c, ok := strip(v).(*ssa.Call)
		if !ok || model.ObjectMethod(c.Common()) != model.GetObjectMeta {
			return v
		}
		v = model.Recv(c.Common())
		if fa, ok := v.(*ssa.FieldAddr); ok && FieldName(fa) == "ObjectMeta" {
			return fa.X
		}
	}
	return v
}

// metaEvent classifies a store of a whole ObjectMeta into an object. In a
// composite literal that builds the object, it is no event: the object is
// constructed anyway.
func (p *Package) metaEvent(st *ssa.Store) *event {
	if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
		if _, ok := fa.X.(*ssa.Alloc); ok {
			if e := p.metaEventOf(st); p.kindOf(e) == evClear {
				return nil
			}
		}
	}
	return p.metaEventOf(st)
}

func (p *Package) metaEventOf(st *ssa.Store) *event {
	v := strip(st.Val)
	// obj.ObjectMeta = other.ObjectMeta, or *other.ObjectMeta.DeepCopy()
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		switch x := ld.X.(type) {
		case *ssa.FieldAddr:
			if FieldName(x) == "ObjectMeta" {
				return p.copiedMeta(st, x.X)
			}
		case *ssa.Call:
			if model.ObjectMethod(x.Common()) == model.DeepCopy {
				if fa, ok := model.Recv(x.Common()).(*ssa.FieldAddr); ok && FieldName(fa) == "ObjectMeta" {
					return p.copiedMeta(st, fa.X)
				}
			}
		case *ssa.Alloc:
			// A metav1.ObjectMeta literal: does it set ResourceVersion?
			for _, r := range ssax.Referrers(x) {
				fa, ok := r.(*ssa.FieldAddr)
				if !ok || FieldName(fa) != "ResourceVersion" {
					continue
				}
				for _, rr := range ssax.Referrers(fa) {
					if s, ok := rr.(*ssa.Store); ok && s.Addr == fa {
						return p.rvEvent(st, s.Val)
					}
				}
			}
			return &event{kind: evClear, instr: st}
		}
	}
	if c, ok := v.(*ssa.Const); ok && !c.IsNil() {
		return &event{kind: evClear, instr: st} // metav1.ObjectMeta{}
	}
	return &event{kind: evSetRV, instr: st}
}

func (p *Package) copiedMeta(st *ssa.Store, from ssa.Value) *event {
	if allNoRV(p.Object(from, st)) {
		return &event{kind: evClear, instr: st}
	}
	return &event{kind: evSetRV, instr: st}
}

// decodeEvent is the fill of an object by a call that decodes data into it:
// a JSON round trip of the object data encodes, an object of no known
// origin when the bytes come from elsewhere, else a manifest's.
func (p *Package) decodeEvent(call ssa.CallInstruction, data ssa.Value) *event {
	src, foreign := p.encodingOf(data)
	switch {
	case src != nil:
		return &event{kind: evFill, instr: call, src: src}
	case foreign:
		return &event{kind: evFill, instr: call, origin: Origin{Kind: Unknown, Site: call}}
	}
	return &event{kind: evFill, instr: call, origin: Origin{Kind: Constructed, Site: call, Decoded: true}}
}

// callEvent recognises calls that fill an object or set its resourceVersion.
func (p *Package) callEvent(call ssa.CallInstruction, a ssa.Value) *event {
	c := call.Common()
	args := model.Args(c)
	argIndex := -1
	for i, arg := range args {
		if arg == a {
			argIndex = i
			break
		}
	}
	isRecv := model.Recv(c) == a
	if mc, ok := classify(c); ok {
		if mc.Obj < 0 || mc.Obj != argIndex {
			return nil
		}
		switch {
		case mc.Op == model.OpRead:
			return &event{kind: evFill, instr: call, origin: Origin{Kind: Read, Site: call, RV0: p.RV0(c, mc)}}
		case mc.Op == model.OpCacheRead:
			return &event{kind: evFill, instr: call, origin: Origin{Kind: CacheRead, Site: call}}
		case mc.Client == model.ControllerRuntime && (mc.Op == model.OpCreate || mc.Op == model.OpUpdate || mc.Op == model.OpPatch) &&
			model.SubResourceBody(c, mc) == nil:
			// controller-runtime fills the object in with the server's
			// state, new resourceVersion included, when the write succeeds.
			return &event{kind: evFill, instr: call, origin: Origin{Kind: Read, Site: call}, onSuccess: true}
		}
		return nil
	}
	switch model.ObjectMethod(c) {
	case model.SetResourceVersion:
		if isRecv {
			return p.rvEvent(call, strip(args[0]))
		}
		return nil
	case model.DeepCopyInto:
		if argIndex == 0 {
			return &event{kind: evFill, instr: call, src: model.Recv(c)}
		}
		return nil
	case model.SetUnstructuredContent:
		if isRecv {
			return &event{kind: evFill, instr: call, src: strip(args[0])}
		}
		return nil
	case model.UnmarshalJSON:
		if isRecv {
			return p.decodeEvent(call, args[0])
		}
		return nil
	}
	if f, ok := model.FuncOf(c); ok {
		switch f.Kind {
		case model.FuncCopy:
			if f.Dst >= 0 && f.Dst == argIndex {
				return &event{kind: evFill, instr: call, src: model.Arg(c, f.Src)}
			}
		case model.FuncDecode:
			if f.Dst >= 0 && f.Dst == argIndex {
				return p.decodeEvent(call, model.Arg(c, f.Data))
			}
		case model.FuncReadWrite:
			if f.Obj == argIndex {
				return &event{kind: evFill, instr: call, origin: Origin{Kind: Read, Site: call}}
			}
		}
		return nil
	}
	// A helper that reads into one of its parameters.
	fn := callee(c)
	pi := -1
	for i, arg := range c.Args {
		if arg == a {
			pi = i
		}
	}
	if pi < 0 {
		return nil
	}
	if fn == nil && unresolvedIO(c) {
		// A method of an interface of the program's own, given a context:
		// a client of its own (List(ctx, namespace, list, opts)) that the
		// analysis cannot see into may fill the object in.
		return &event{kind: evFill, instr: call, origin: Origin{Kind: Unknown, Site: call}}
	}
	var readsInto bool
	var sets, clears []int
	if p.local(fn) {
		s := p.summary(fn)
		readsInto, sets, clears = s.ReadsInto[pi], s.SetsRV, s.ClearsRV
	} else if obj := funcObject(fn); obj != nil && p.facts != nil {
		if ff := p.facts.FuncFact(obj); ff != nil {
			readsInto, sets, clears = ff.readsInto(pi), ff.SetsRV, ff.ClearsRV
		}
	}
	switch {
	case readsInto:
		return &event{kind: evFill, instr: call, origin: Origin{Kind: Read, Site: call, Via: funcObject(fn)}}
	case slices.Contains(sets, pi):
		return &event{kind: evSetRV, instr: call}
	case slices.Contains(clears, pi):
		return &event{kind: evClear, instr: call}
	}
	return nil
}

// unresolvedIO reports whether c calls a method of an interface outside the
// modelled modules (whose implementation the analysis cannot see) and gives
// it a context.Context, as a call that talks to a server does.
func unresolvedIO(c *ssa.CallCommon) bool {
	if !c.IsInvoke() || c.Method.Pkg() == nil || model.IsModelled(model.PkgPath(c.Method.Pkg())) {
		return false
	}
	for _, arg := range c.Args {
		if model.IsContext(arg.Type()) {
			return true
		}
	}
	return false
}

// Object returns the possible provenances of the object v refers to when
// instruction at executes.
func (p *Package) Object(v ssa.Value, at ssa.Instruction) []Origin {
	return p.objectAt(v, at, 0)
}

// ObjectWhenRun is Object for the object a call writes, when the call
// runs: a deferred call (defer r.Status().Update(ctx, obj), made before
// r.Get(ctx, key, obj) fills obj) runs where its function returns, so the
// provenances are those at each RunDefers that can follow the defer.
func (p *Package) ObjectWhenRun(v ssa.Value, call ssa.CallInstruction) []Origin {
	d, ok := call.(*ssa.Defer)
	if !ok || d.Parent() == nil {
		return p.Object(v, call)
	}
	var out []Origin
	found := false
	for _, b := range d.Parent().Blocks {
		for _, instr := range b.Instrs {
			rd, ok := instr.(*ssa.RunDefers)
			if !ok || !p.mayReach(d, rd) {
				continue
			}
			found = true
			// The deferred write itself does not run before it.
			prev := p.runAt
			p.runAt = d
			out = append(out, p.Object(v, rd)...)
			p.runAt = prev
		}
	}
	if !found {
		return p.Object(v, call)
	}
	return dedupOrigins(out)
}

func (p *Package) objectAt(v ssa.Value, at ssa.Instruction, depth int) []Origin {
	if v == nil {
		return nil
	}
	info := p.describe(v)
	origins := info.origins
	if phi, ok := strip(v).(*ssa.Phi); ok {
		if dead := infeasibleEdges(phi, at); dead != nil {
			// Only the ways into the phi that at can follow give it an
			// origin; the events on the phi's value stay.
			origins = nil
			for i, e := range phi.Edges {
				if !dead[i] && !isNil(e) {
					origins = append(origins, p.describe(e).origins...)
				}
			}
		}
	}
	item := itemTaken(v)
	var evs []*event
	for _, e := range info.events {
		if e.instr != at && e.instr != p.runAt && p.mayRunAfter(e.instr, at) && (!e.onSuccess || p.afterSuccess(e.instr, at)) && !exclusiveBranches(e.instr, at) &&
			(item == nil || !p.dominates(item, e.instr) || p.reachesAvoiding(e.instr, at, item)) {
			evs = append(evs, e)
		}
	}
	// The events that run before at on every path to it are in functions
	// that enclose at's (or in at's own), so they are ordered by dominance:
	// last is the latest of them. It kills the object's origins and every
	// event that comes before it on every path, the events before it
	// included, without comparing each event with every other.
	var last ssa.Instruction
	for _, e := range evs {
		if p.dominates(e.instr, at) && (last == nil || p.dominates(last, e.instr)) {
			last = e.instr
		}
	}
	var out []Origin
	for _, o := range origins {
		// An object made in a closure that is made after the last event
		// on every path (read again in a retried function, after a poll
		// refilled an alias the closure later overwrites) is not the one
		// the event touched.
		if last == nil || o.Site != nil && o.Site.Parent() != last.Parent() && p.dominates(last, o.Site) {
			out = append(out, o)
		}
	}
	for _, e := range evs {
		if last != nil && p.dominates(e.instr, last) {
			continue
		}
		if last != nil && last.Parent() == at.Parent() && e.instr.Parent() != at.Parent() && p.anchorFn(at.Parent(), e.instr.Parent()) != nil {
			// An event of a function that encloses at's closure runs
			// before the closure is called or after it returns, never
			// between last and at inside one call (a Get at the top of a
			// retried function refills what the maker put there).
			continue
		}
		switch p.kindOf(e) {
		case evClear:
			out = append(out, Origin{Kind: Cleared, Site: e.instr})
		case evSetRV:
			out = append(out, Origin{Kind: Precondition, Site: e.instr})
		case evFill:
			if e.src == nil {
				out = append(out, e.origin)
			} else if depth < maxFillDepth {
				out = append(out, p.objectAt(e.src, e.instr, depth+1)...)
			} else {
				out = append(out, Origin{Kind: Unknown, Site: e.instr})
			}
		}
	}
	return dedupOrigins(out)
}

// itemTaken returns the instruction that takes v out of a list or a map
// (items[i], &items[i], m[k], a value of a range over a map), or nil. A
// loop that takes its items this way refers to another item on each
// round: what a round did to its item after taking it (a write that
// refreshed it from the server's answer) is not what the next round's item
// holds. What was done to the list before stays.
func itemTaken(v ssa.Value) ssa.Instruction {
	x := strip(v)
	if ld, ok := x.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if _, ok := ld.X.(*ssa.IndexAddr); ok {
			return ld
		}
	}
	if listOf(x) == nil {
		return nil
	}
	in, _ := x.(ssa.Instruction)
	return in
}

// afterSuccess reports whether at can run only after call succeeded: call's
// error is checked against nil and at is dominated by the branch where it is
// nil. Without such a check, or across functions, it says yes.
func (p *Package) afterSuccess(call ssa.Instruction, at ssa.Instruction) bool {
	c, ok := call.(*ssa.Call)
	if !ok || at.Parent() != c.Parent() {
		return true
	}
	for _, r := range ssax.Referrers(c) {
		bin, ok := r.(*ssa.BinOp)
		if !ok || (!isNil(bin.X) && !isNil(bin.Y)) {
			continue
		}
		for _, rr := range ssax.Referrers(bin) {
			iff, ok := rr.(*ssa.If)
			if !ok {
				continue
			}
			failure := failureSuccessor(iff)
			if failure == nil {
				continue
			}
			success := iff.Block().Succs[0]
			if success == failure {
				success = iff.Block().Succs[1]
			}
			return success.Dominates(at.Block())
		}
	}
	return true
}

// marshalledObject returns the object whose encoding a byte slice is
// (json.Marshal(obj), also through a variable), or nil.
func (p *Package) marshalledObject(data ssa.Value) ssa.Value {
	obj, _ := p.encodingOf(data)
	return obj
}

// encodingOf returns the object whose encoding a byte slice is (see
// marshalledObject), or whether the bytes encode an object the function
// cannot see (foreign): a patch applied to the caller's bytes
// (jsonpatch.MergePatch(orig, patch) with orig a parameter) is applied to
// the encoding of an object that exists, and bytes that come from
// elsewhere (fromOutside) were serialized by whoever sent them; an object
// decoded from them is of no origin the analysis knows, not a manifest.
func (p *Package) encodingOf(data ssa.Value) (obj ssa.Value, foreign bool) {
	return p.encodingOfDepth(data, 0)
}

// encodingOfDepth is encodingOf, callers deep in the walk of callersEncode.
func (p *Package) encodingOfDepth(data ssa.Value, callers int) (obj ssa.Value, foreign bool) {
	patched := false
	for depth := 0; data != nil && depth < maxMarshalChain; depth++ {
		switch x := strip(data).(type) {
		case *ssa.Extract:
			call, ok := x.Tuple.(*ssa.Call)
			if !ok || x.Index != 0 {
				return nil, p.fromOutside(data, 0)
			}
			if model.IsEncoder(call.Common()) {
				if v := strip(call.Call.Args[0]); model.IsObject(v.Type()) {
					return v, false
				}
				return nil, false
			}
			if doc, ok := model.PatchApplier(call.Common()); ok {
				// A patch applied to the encoding of an object: its
				// metadata, resourceVersion included, stays.
				data, patched = doc, true
				continue
			}
			if doc := model.ConvertedDocument(call.Common()); doc != nil {
				data = doc // yaml.YAMLToJSON(data): the same document
				continue
			}
			if p.transformsEncoding(call, callers) {
				return nil, true
			}
			return nil, p.fromOutside(data, 0)
		case *ssa.Call:
			// buf.Bytes() after codec.Encode(obj, buf).
			if v := model.BufferEncoding(x.Common()); v != nil {
				return v, false
			}
			return nil, p.fromOutside(data, 0)
		case *ssa.UnOp:
			vals := p.VariableValues(x)
			if len(vals) != 1 {
				return nil, p.fromOutside(data, 0)
			}
			data = vals[0]
		case *ssa.Parameter:
			return nil, patched || p.callersEncode(x, callers)
		case *ssa.FreeVar:
			return nil, patched
		default:
			return nil, p.fromOutside(data, 0)
		}
	}
	return nil, false
}

// transformsEncoding reports whether a call of a function of the package
// that returns a document is given the encoding of an object (bytes or a
// string, through the same walk, callers deep): a helper that prunes or
// merges documents (prune(json.Marshal(current.DeepCopy()), original,
// requested)) returns one that may keep the object's metadata, its
// resourceVersion included, not a manifest's.
func (p *Package) transformsEncoding(call *ssa.Call, callers int) bool {
	fn := call.Call.StaticCallee()
	if !p.local(fn) || callers >= maxCallerDepth {
		return false
	}
	for _, a := range call.Call.Args {
		if !isBytesOrString(a.Type()) {
			continue
		}
		if obj, foreign := p.encodingOfDepth(a, callers+1); obj != nil || foreign {
			return true
		}
	}
	return false
}

// callersEncode reports whether a call of the function in the package
// passes, for bytes parameter prm, the encoding of an object (through
// parameters of other functions, maxCallerDepth deep): bytes that may
// carry the resourceVersion of an object read, not a manifest's.
func (p *Package) callersEncode(prm *ssa.Parameter, depth int) bool {
	fn := prm.Parent()
	if fn == nil || depth >= maxCallerDepth {
		return false
	}
	idx := paramIndex(fn, prm)
	for _, c := range p.callsOf[fn] {
		args := c.Common().Args
		if c.Common().IsInvoke() || idx >= len(args) {
			continue
		}
		if obj, foreign := p.encodingOfDepth(args[idx], depth+1); obj != nil || foreign {
			return true
		}
	}
	return false
}

// fromOutside reports whether bytes (or a string) come to the function
// from elsewhere, serialized by whoever sent them: a value received from
// a channel (a message, also in a select), a value asserted out of an
// interface (an item of a work queue), what io.ReadAll reads (a request
// body), what a method of a received value returns (msg.ContentData()),
// or what a function of the package returns that comes so. Constants,
// package variables (an embedded manifest), parameters, files and
// templates are not.
func (p *Package) fromOutside(v ssa.Value, depth int) bool {
	if v == nil || depth > maxMarshalChain {
		return false
	}
	switch x := v.(type) { // not strip: it looks through a type assertion
	case *ssa.Convert:
		return p.fromOutside(x.X, depth+1)
	case *ssa.ChangeType:
		return p.fromOutside(x.X, depth+1)
	case *ssa.MakeInterface:
		return p.fromOutside(x.X, depth+1)
	case *ssa.Slice:
		return p.fromOutside(x.X, depth+1)
	case *ssa.TypeAssert:
		return true
	case *ssa.UnOp:
		if received(x) {
			return true
		}
		for _, w := range p.VariableValues(x) {
			if p.fromOutside(w, depth+1) {
				return true
			}
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			if p.fromOutside(e, depth+1) {
				return true
			}
		}
	case *ssa.Extract:
		if received(x) {
			return true
		}
		if t, ok := x.Tuple.(*ssa.Call); ok {
			return p.callFromOutside(t, x.Index, depth)
		}
	case *ssa.Call:
		return p.callFromOutside(x, 0, depth)
	}
	return false
}

// callFromOutside is fromOutside for the result idx of a call.
func (p *Package) callFromOutside(call *ssa.Call, idx int, depth int) bool {
	c := call.Common()
	if name := model.CalleeName(c); name == "io.ReadAll" || name == "io/ioutil.ReadAll" {
		return true
	}
	if r := model.Recv(c); r != nil && p.receivedValue(r) {
		return true // a method of a value received (msg.ContentData())
	}
	fn := callee(c)
	if fn == nil || !p.local(fn) || len(fn.Blocks) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && idx < len(ret.Results) {
			if p.fromOutside(ret.Results[idx], depth+1) {
				return true
			}
		}
	}
	return false
}

// receivedValue reports whether v is a value received from a channel, or
// a variable (or its address) that holds one.
func (p *Package) receivedValue(v ssa.Value) bool {
	v = strip(v)
	if received(v) {
		return true
	}
	var vals []ssa.Value
	switch x := v.(type) {
	case *ssa.UnOp:
		vals = p.VariableValues(x)
	case *ssa.Alloc: // msg.Method() with a pointer receiver: the variable's address
		vals = p.storedValues(x)
	}
	return len(vals) == 1 && p.receivedValue(vals[0])
}

// received reports whether v is what a receive from a channel gives: <-ch,
// v, ok := <-ch, or the value of a select's case v := <-ch.
func received(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.UnOp:
		return x.Op == token.ARROW
	case *ssa.Extract:
		switch x.Tuple.(type) {
		case *ssa.Select, *ssa.UnOp:
			return true
		}
	}
	return false
}

// RefilledWhere reports whether the object v refers to is filled again
// (a controller-runtime read into it, a copy into it) or gets a
// resourceVersion from a read at an instruction accepted by where: in a
// retried function, a re-read after a failed write serves the next attempt.
func (p *Package) RefilledWhere(v ssa.Value, where func(ssa.Instruction) bool) bool {
	if v == nil {
		return false
	}
	for _, e := range p.describe(v).events {
		// A write that fills the object in on success ends the retry: it
		// is no re-read.
		if k := p.kindOf(e); (k == evFill || k == evSetRV) && !e.onSuccess && where(e.instr) {
			return true
		}
	}
	return false
}
