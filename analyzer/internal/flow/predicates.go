package flow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// A predicate of a watch chooses objects, not changes, when it passes every
// update of an object it admits: it tests the new object's labels, names
// or owners only (predicate.LabelSelectorPredicate, NewPredicateFuncs of
// such a filter, a predicate.Funcs whose UpdateFunc is nil or asks only
// that of ObjectNew), or it drops only resyncs
// (ResourceVersionChangedPredicate). A write that keeps those, as a status
// write does, passes it: the conflicting writer's event reaches the
// controller as it would with no predicate. A test of the old object, of
// the generation, of the status or of anything the analysis cannot see is
// taken to filter changes.

// maxPredicateDepth bounds how many functions deep a predicate is followed
// (a constructor of the package that returns one, Or of them).
const maxPredicateDepth = 4

// choosesObjects reports whether the predicate v chooses objects, not
// changes, in the sense above.
func (p *Package) choosesObjects(v ssa.Value, depth int) bool {
	if depth > maxPredicateDepth || v == nil {
		return false
	}
	if model.PassesEveryChange(v) {
		return true
	}
	switch x := strip(v).(type) {
	case *ssa.Extract:
		// pred, err := predicate.LabelSelectorPredicate(sel)
		c, ok := x.Tuple.(*ssa.Call)
		return ok && x.Index == 0 && p.choosesObjectsCall(c, depth)
	case *ssa.Call:
		return p.choosesObjectsCall(x, depth)
	case *ssa.UnOp:
		// A predicate.Funcs literal, loaded.
		if alloc, ok := x.X.(*ssa.Alloc); ok && model.IsPredicateFuncs(x.Type()) {
			return p.funcsChooseObjects(alloc)
		}
	case *ssa.Alloc:
		if model.IsPredicateFuncs(x.Type()) {
			return p.funcsChooseObjects(x)
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !p.choosesObjects(e, depth+1) {
				return false
			}
		}
		return len(x.Edges) > 0
	}
	return false
}

func (p *Package) choosesObjectsCall(c *ssa.Call, depth int) bool {
	switch model.PredicateCall(&c.Call) {
	case model.PredicateLabels:
		return true
	case model.PredicateOfObject:
		fns := p.funcValues(model.Arg(&c.Call, 0))
		for _, fn := range fns {
			if len(fn.Params) == 0 || dropsSome(fn) || !asksIdentityOnly(fn.Params[len(fn.Params)-1]) {
				return false
			}
		}
		return len(fns) > 0
	case model.PredicateAnd, model.PredicateOr:
		// Or passes what one of them passes: every one must choose
		// objects, since the object may be admitted by any of them.
		preds := sliceElements(model.Arg(&c.Call, 0))
		for _, e := range preds {
			if !p.choosesObjects(e, depth+1) {
				return false
			}
		}
		return len(preds) > 0
	}
	fn := c.Call.StaticCallee()
	if fn == nil {
		return false
	}
	if p.local(fn) {
		return p.summary(fn).ChoosesObjects
	}
	if obj := calleeObject(&c.Call); obj != nil && p.facts != nil {
		if ff := p.facts.FuncFact(obj); ff != nil {
			return ff.ChoosesObjects
		}
	}
	return false
}

// returnsChooser reports whether fn, a function of the package whose first
// result is a predicate, returns one that chooses objects on every path.
func (p *Package) returnsChooser(fn *ssa.Function) bool {
	if fn.Signature.Results().Len() == 0 || !model.IsPredicate(fn.Signature.Results().At(0).Type()) {
		return false
	}
	rets := 0
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 || !p.choosesObjects(ret.Results[0], 1) {
			return false
		}
		rets++
	}
	return rets > 0
}

// funcsChooseObjects is choosesObjects for a predicate.Funcs literal: its
// UpdateFunc is never set (a nil UpdateFunc passes every update), or is
// set to functions that ask only identity of the new object.
func (p *Package) funcsChooseObjects(alloc *ssa.Alloc) bool {
	for _, v := range updateFuncStores(alloc) {
		if k, ok := v.(*ssa.Const); ok && k.IsNil() {
			continue
		}
		fns := p.funcValues(v)
		if len(fns) == 0 {
			return false
		}
		for _, fn := range fns {
			if len(fn.Params) == 0 || dropsSome(fn) || !updateAsksNewIdentity(fn.Params[len(fn.Params)-1]) {
				return false
			}
		}
	}
	return true
}

// dropsSome reports whether a filter answers false on some path whatever
// the object (UpdateFunc: func(event.UpdateEvent) bool { return false }
// drops every update): a constant, not a test of the object.
func dropsSome(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		if k, ok := ret.Results[0].(*ssa.Const); ok && k.Value != nil && k.Value.String() == "false" {
			return true
		}
	}
	return false
}

// updateFuncStores returns the values stored in the UpdateFunc field of a
// struct literal of event funcs (predicate.Funcs,
// cache.ResourceEventHandlerFuncs).
func updateFuncStores(alloc *ssa.Alloc) []ssa.Value {
	var out []ssa.Value
	for _, r := range ssax.Referrers(alloc) {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		st := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		if st.Field(fa.Field).Name() != model.UpdateFunc {
			continue
		}
		for _, fr := range ssax.Referrers(fa) {
			if s, ok := fr.(*ssa.Store); ok && s.Addr == fa {
				out = append(out, s.Val)
			}
		}
	}
	return out
}

// updateAsksNewIdentity reports whether an UpdateFunc uses its event e
// only as e.ObjectNew, and asks only identity of that. The event may be
// kept in a local (the SSA form of e.ObjectNew.GetLabels()).
func updateAsksNewIdentity(e *ssa.Parameter) bool {
	for _, r := range ssax.Referrers(e) {
		switch x := r.(type) {
		case *ssa.Field:
			st, ok := x.X.Type().Underlying().(*types.Struct)
			if !ok || st.Field(x.Field).Name() != model.ObjectNew || !asksIdentityOnly(x) {
				return false
			}
		case *ssa.Store:
			alloc, ok := x.Addr.(*ssa.Alloc)
			if !ok || x.Val != e || !localAsksNewIdentity(alloc) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// localAsksNewIdentity is updateAsksNewIdentity for the local the event
// is stored in: only ObjectNew is loaded from it, and asked only identity.
func localAsksNewIdentity(alloc *ssa.Alloc) bool {
	for _, r := range ssax.Referrers(alloc) {
		switch x := r.(type) {
		case *ssa.Store:
			if x.Addr != alloc {
				return false
			}
		case *ssa.FieldAddr:
			st := x.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
			if st.Field(x.Field).Name() != model.ObjectNew {
				return false
			}
			for _, rr := range ssax.Referrers(x) {
				ld, ok := rr.(*ssa.UnOp)
				if _, dbg := rr.(*ssa.DebugRef); dbg {
					continue
				}
				if !ok || ld.Op != token.MUL || !asksIdentityOnly(ld) {
					return false
				}
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// asksIdentityOnly reports whether obj, an object a filter is given, is
// only asked what names or labels it (model.IsIdentityGetter), or compared
// with nil.
func asksIdentityOnly(obj ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var ok func(v ssa.Value) bool
	ok = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		for _, r := range ssax.Referrers(v) {
			switch x := r.(type) {
			case *ssa.DebugRef:
			case *ssa.MakeInterface:
				if !ok(x) {
					return false
				}
			case *ssa.ChangeInterface:
				if !ok(x) {
					return false
				}
			case *ssa.BinOp:
				// obj == nil
				if k, isConst := x.Y.(*ssa.Const); !isConst || !k.IsNil() {
					return false
				}
			case ssa.CallInstruction:
				// obj.GetLabels(), through the interface or the type.
				cc := x.Common()
				var name string
				switch fn := cc.StaticCallee(); {
				case cc.IsInvoke() && cc.Value == v && len(cc.Args) == 0:
					name = cc.Method.Name()
				case fn != nil && fn.Signature.Recv() != nil && len(cc.Args) == 1 && cc.Args[0] == v:
					name = fn.Name()
				}
				if !model.IsIdentityGetter(name) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return ok(obj)
}

// sliceElements returns the values a slice given as the variadic argument
// of a call holds: the elements of a literal (Or(a, b)), or every value
// stored into a slice the function makes (ps := make([]P, n); ps[i] = ...;
// Or(ps...)). nil when it cannot tell.
func sliceElements(v ssa.Value) []ssa.Value {
	if els := ssax.VariadicElements(v); len(els) > 0 {
		out := make([]ssa.Value, len(els))
		for i, e := range els {
			out[i] = e.Value
		}
		return out
	}
	ms, ok := strip(v).(*ssa.MakeSlice)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, r := range ssax.Referrers(ms) {
		switch x := r.(type) {
		case *ssa.IndexAddr:
			for _, rr := range ssax.Referrers(x) {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == x {
					out = append(out, st.Val)
				}
			}
		case *ssa.DebugRef:
		case *ssa.Call:
			if op := model.PredicateCall(&x.Call); op != model.PredicateAnd && op != model.PredicateOr {
				return nil
			}
		default:
			return nil
		}
	}
	return out
}
