package model

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// InformerHandler recognises the registration of an event handler on the
// shared informer of a generated typed informer (k8s.io/client-go/informers
// and every informer-gen package for CRDs):
//
//	factory.Core().V1().Pods().Informer().AddEventHandler(handler)
//
// (also AddEventHandlerWithResyncPeriod and AddEventHandlerWithOptions). It
// returns the handler argument and the type of the objects the informer
// holds (*v1.Pod), which is the element type of its lister's List. ok is
// false for any other call, and for an informer whose type the call does
// not show (one kept in a field as a cache.SharedIndexInformer). The
// informer a controller-runtime cache gives for a type counts too:
//
//	inf, err := mgr.GetCache().GetInformer(ctx, &v1.Pod{})
//	inf.AddEventHandler(handler)
func InformerHandler(c *ssa.CallCommon) (handler ssa.Value, objType types.Type, ok bool) {
	name, _, recv, isMethod := methodOf(c)
	if !isMethod || !strings.HasPrefix(name, "AddEventHandler") || len(Args(c)) == 0 {
		return nil, nil, false
	}
	if p, n := typeName(recv); isCRCache(p) && n == "Informer" {
		// inf, err := mgr.GetCache().GetInformer(ctx, &v1.Pod{})
		t := crInformerType(Recv(c))
		if t == nil {
			return nil, nil, false
		}
		return Args(c)[0], t, true
	}
	if p, _ := typeName(recv); p != Cache {
		return nil, nil, false
	}
	inf, isCall := unwrapChangeInterface(Recv(c)).(*ssa.Call)
	if !isCall {
		return nil, nil, false
	}
	iname, _, typed, isMethod := methodOf(&inf.Call)
	if !isMethod || iname != "Informer" {
		return nil, nil, false
	}
	t := listedType(typed)
	if t == nil {
		return nil, nil, false
	}
	return Args(c)[0], t, true
}

// crInformerType returns *T for the informer a controller-runtime cache
// answers GetInformer(ctx, &T{}) with, or nil.
func crInformerType(v ssa.Value) types.Type {
	ex, ok := unwrapChangeInterface(v).(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return nil
	}
	get, ok := ex.Tuple.(*ssa.Call)
	if !ok {
		return nil
	}
	name, _, recv, isMethod := methodOf(&get.Call)
	if !isMethod || name != "GetInformer" {
		return nil
	}
	if p, _ := typeName(recv); !isCRCache(p) {
		return nil
	}
	t := ssax.ConcreteType(Arg(&get.Call, 1))
	if _, ok := t.(*types.Pointer); !ok {
		return nil
	}
	return t
}

// unwrapChangeInterface returns the value v converts from one interface
// type to another, through every such conversion.
func unwrapChangeInterface(v ssa.Value) ssa.Value {
	for {
		ci, ok := v.(*ssa.ChangeInterface)
		if !ok {
			return v
		}
		v = ci.X
	}
}

// isCRCache reports whether path is controller-runtime's cache package, or
// cacheapi, where its interfaces live since v0.23.
func isCRCache(path string) bool { return path == CRCache || path == CRCache+"/cacheapi" }

// listedType returns *T for a typed informer whose Lister() has a
// List(labels.Selector) ([]*T, error), or nil.
func listedType(informer types.Type) types.Type {
	lister := resultOf(informer, "Lister")
	if lister == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(lister, true, nil, "List")
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 1 || !isNamed(sig.Params().At(0).Type(), Labels, "Selector") || sig.Results().Len() != 2 {
		return nil
	}
	sl, ok := sig.Results().At(0).Type().Underlying().(*types.Slice)
	if !ok {
		return nil
	}
	if _, ok := sl.Elem().(*types.Pointer); !ok {
		return nil
	}
	return sl.Elem()
}

// resultOf returns the one result of the method name of t that takes no
// argument, or nil.
func resultOf(t types.Type, name string) types.Type {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return nil
	}
	return sig.Results().At(0).Type()
}

// IsEventHandlerFuncs reports whether t (or *t) is one of client-go's
// handler structs of funcs (cache.ResourceEventHandlerFuncs,
// ResourceEventHandlerDetailedFuncs), whose UpdateFunc field is the
// handler of updates; a FilteringResourceEventHandler, or a type of the
// user's, is not.
func IsEventHandlerFuncs(t types.Type) bool {
	p, n := typeName(t)
	return p == Cache && strings.HasPrefix(n, "ResourceEventHandler") && strings.HasSuffix(n, "Funcs")
}

// UpdateFunc is the field of the handler structs of funcs that handles
// updates.
const UpdateFunc = "UpdateFunc"

// IsRVRead reports whether v reads a resourceVersion: the ResourceVersion
// field of an object's metadata (IsRVField), or a call of
// GetResourceVersion().
func IsRVRead(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
			return ok && IsRVField(fa.X.Type(), st.Field(fa.Field))
		}
	case *ssa.Field:
		st, ok := x.X.Type().Underlying().(*types.Struct)
		return ok && IsRVField(x.X.Type(), st.Field(x.Field))
	case *ssa.Call:
		name, _, _, ok := methodOf(&x.Call)
		return ok && name == GetResourceVersion && len(Args(&x.Call)) == 0
	}
	return false
}
