package flow

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// WhileDeleting reports whether instruction at runs only when the deletion
// timestamp of the object v refers to is set: in the branch of a test of it
// in at's function (obj.DeletionTimestamp != nil,
// !obj.GetDeletionTimestamp().IsZero(), or the else branch of their
// negations), or after such a test returned from the other branch, or
// after a dereference of the timestamp (derefDeleting); or, in a function
// given the object, when every call of it in the package (static, or
// through an interface: addInvokes) runs so with the object it passes (or
// with a deep copy made where its original is being deleted), or passes
// nil (an exported one too: the calls of another package are not seen,
// and those of its own package say what it is for); or, in a function
// given a struct whose field it loads the object from (oc.Group), when
// every call runs so with that field of the struct it passes
// (fieldDeleting); or, in a closure, when the
// closure is made so (a deletion timestamp is never unset, so a closure
// made for an object being deleted runs while it is, whenever it is called,
// even after it reads the object again).
func (p *Package) WhileDeleting(v ssa.Value, at ssa.Instruction) bool {
	return p.whileDeleting(v, at, 0)
}

func (p *Package) whileDeleting(v ssa.Value, at ssa.Instruction, depth int) bool {
	if v == nil || at == nil || at.Block() == nil {
		return false
	}
	obj := map[ssa.Value]bool{}
	var params []*ssa.Parameter
	var copies []*ssa.Call
	for _, a := range p.objectAliases(v) {
		obj[a] = true
		if prm, ok := a.(*ssa.Parameter); ok && prm.Parent() == at.Parent() {
			params = append(params, prm)
		}
		if c, ok := a.(*ssa.Call); ok && model.ObjectMethod(c.Common()) == model.DeepCopy {
			copies = append(copies, c)
		}
	}
	if p.branchDeleting(obj, at) || derefDeleting(obj, at) {
		return true
	}
	if depth < maxParamReadDepth && p.rereadDeleting(v, at, depth) {
		return true
	}
	// A deep copy carries the deletion timestamp its original had when it
	// was copied (finalize(obj.DeepCopy()) under a test of obj's).
	for _, c := range copies {
		if depth < maxParamReadDepth && p.whileDeleting(model.Recv(c.Common()), c, depth+1) {
			return true
		}
	}
	fn := at.Parent()
	if mc := p.made[fn]; mc != nil {
		return depth < maxParamReadDepth && p.whileDeleting(v, mc, depth+1)
	}
	if depth >= maxParamReadDepth || fn.Object() == nil {
		return false
	}
	if len(params) == 0 {
		// The object is a field of a struct the function is given
		// (oc.Group): its callers test that field of what they pass.
		prm, field, ok := p.paramField(obj, fn)
		if !ok {
			return false
		}
		return p.callersDeleting(prm, func(arg ssa.Value, c ssa.CallInstruction) bool {
			return p.fieldDeleting(arg, field, c, depth+1)
		})
	}
	if len(params) != 1 {
		return false
	}
	return p.callersDeleting(params[0], func(arg ssa.Value, c ssa.CallInstruction) bool {
		return p.whileDeleting(arg, c, depth+1)
	})
}

// callersDeleting reports whether the function of prm has calls in the
// package, and each passes nil for prm or passes an argument for which
// deleting holds at the call.
func (p *Package) callersDeleting(prm *ssa.Parameter, deleting func(arg ssa.Value, c ssa.CallInstruction) bool) bool {
	fn := prm.Parent()
	calls := slices.Concat(p.callsOf[fn], p.dispatchCalls(fn))
	if len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		arg := argFor(c.Common(), prm)
		if k, ok := arg.(*ssa.Const); ok && k.IsNil() {
			continue // no object: the write of it does not run (or panics)
		}
		if arg == nil || !deleting(arg, c) {
			return false
		}
	}
	return true
}

// paramField finds, among the objects, a load of a reference field of a
// struct of the program that fn is given as a parameter (oc.Group, with oc
// a parameter) and never sets: every load of it is the one object its
// callers put there. ok is false unless all such loads are of one field of
// one parameter.
func (p *Package) paramField(obj map[ssa.Value]bool, fn *ssa.Function) (prm *ssa.Parameter, field int, ok bool) {
	for v := range obj {
		_, fa := fieldLoad(v)
		if fa == nil {
			continue
		}
		q, isParam := strip(fa.X).(*ssa.Parameter)
		if !isParam || q.Parent() != fn {
			continue
		}
		if vals, isWrapped := p.wrapperField(fa); !isWrapped || len(vals) > 0 {
			continue
		}
		if ok && (q != prm || fa.Field != field) {
			return nil, 0, false
		}
		prm, field, ok = q, fa.Field, true
	}
	return prm, field, ok
}

// fieldDeleting reports whether at runs only while the object in field
// field of the struct base refers to is being deleted: at is in a branch
// of a test of the deletion timestamp of a load of that field in at's
// function, or of the one object the function stores into the field (gc :=
// &groupContext{group: w}; if w.DeletionTimestamp != nil), or at follows a
// dereference of that timestamp, or base is a parameter and this holds at
// every call of the function.
func (p *Package) fieldDeleting(base ssa.Value, field int, at ssa.Instruction, depth int) bool {
	if at.Block() == nil || !wrapper(base) {
		return false
	}
	obj := map[ssa.Value]bool{}
	var stored ssa.Value
	for _, b := range p.aliases(base) {
		for _, r := range ssax.Referrers(b) {
			fa, ok := r.(*ssa.FieldAddr)
			if !ok || fa.X != b || fa.Field != field {
				continue
			}
			for _, rr := range ssax.Referrers(fa) {
				switch x := rr.(type) {
				case *ssa.Store:
					if x.Addr != fa {
						continue
					}
					// gc := &groupContext{group: w}: the field holds w, as
					// long as the function puts nothing else there.
					if stored != nil && !slices.Contains(p.objectAliases(stored), x.Val) {
						return false
					}
					if stored == nil {
						stored = x.Val
						for _, a := range p.objectAliases(x.Val) {
							obj[a] = true
						}
					}
				case *ssa.UnOp:
					if x.Op == token.MUL {
						for _, a := range p.objectAliases(x) {
							obj[a] = true
						}
					}
				}
			}
		}
	}
	if len(obj) > 0 && (p.branchDeleting(obj, at) || derefDeleting(obj, at)) {
		return true
	}
	prm, ok := strip(base).(*ssa.Parameter)
	if !ok || prm.Parent() != at.Parent() || depth >= maxParamReadDepth || prm.Parent().Object() == nil {
		return false
	}
	return p.callersDeleting(prm, func(arg ssa.Value, c ssa.CallInstruction) bool {
		return p.fieldDeleting(arg, field, c, depth+1)
	})
}

// ReadBase returns the object a read of one of its fields (a load of
// obj.Field or obj.ObjectMeta.Field, of an element of a list field as a
// range over obj.Finalizers loads it, a call obj.GetField()) reads from, or
// nil.
func ReadBase(r ssa.Instruction) ssa.Value {
	var v ssa.Value
	switch x := r.(type) {
	case *ssa.UnOp:
		v = x.X
		if ia, ok := strip(v).(*ssa.IndexAddr); ok {
			if list, ok := strip(ia.X).(*ssa.UnOp); ok && list.Op == token.MUL {
				v = list.X
			}
		}
	case *ssa.Call:
		v = model.Recv(x.Common())
	}
	for depth := 0; v != nil && depth < maxFieldChain; depth++ {
		fa, ok := strip(v).(*ssa.FieldAddr)
		if !ok {
			return strip(v)
		}
		v = fa.X
	}
	return nil
}

// branchDeleting reports whether at runs only in a branch of its function
// where the deletion timestamp of one of the objects is set.
func (p *Package) branchDeleting(obj map[ssa.Value]bool, at ssa.Instruction) bool {
	return p.branchDeletingAt(obj, at, 0)
}

func (p *Package) branchDeletingAt(obj map[ssa.Value]bool, at ssa.Instruction, depth int) bool {
	for b := at.Block(); b != nil; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		pred := b.Preds[0]
		ifi, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
		if !ok || pred.Succs[0] == pred.Succs[1] {
			continue
		}
		setIfTrue, ok := p.deletionTest(ifi.Cond, obj, depth)
		if ok && (b == pred.Succs[0]) == setIfTrue {
			return true
		}
	}
	return false
}

// derefDeleting reports whether at runs only after a dereference of the
// deletion timestamp of one of the objects (obj.DeletionTimestamp.Add(d),
// obj.DeletionTimestamp.Time), which panics unless it is set: code that
// does this relies on something else (a predicate of its controller) to
// reconcile only objects being deleted.
func derefDeleting(obj map[ssa.Value]bool, at ssa.Instruction) bool {
	for b := at.Block(); b != nil; b = b.Idom() {
		for _, instr := range b.Instrs {
			if instr == at {
				break
			}
			var ptr ssa.Value
			switch x := instr.(type) {
			case *ssa.FieldAddr:
				ptr = x.X
			case *ssa.UnOp:
				if x.Op == token.MUL {
					ptr = x.X
				}
			}
			if ptr != nil && deletionTimestamp(ptr, obj) {
				return true
			}
		}
	}
	return false
}

// deletionTest recognises a test of an object's deletion timestamp, and
// says whether it is true when the timestamp is set: also a call of a
// predicate of the package given the object (isTerminating(obj), whose
// result is such a test of its parameter: deletingPredicate).
func (p *Package) deletionTest(cond ssa.Value, obj map[ssa.Value]bool, depth int) (setIfTrue, ok bool) {
	switch x := cond.(type) {
	case *ssa.Phi:
		return p.deletingConjunction(x, obj, depth)
	case *ssa.UnOp:
		if x.Op == token.NOT {
			set, ok := p.deletionTest(x.X, obj, depth)
			return !set, ok
		}
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false, false
		}
		ts := x.X
		if c, isConst := x.X.(*ssa.Const); isConst && c.IsNil() {
			ts = x.Y
		} else if c, isConst := x.Y.(*ssa.Const); !isConst || !c.IsNil() {
			return false, false
		}
		if deletionTimestamp(ts, obj) {
			return x.Op == token.NEQ, true
		}
	case *ssa.Call:
		c := x.Common()
		if model.CalledName(c) == "IsZero" && deletionTimestamp(model.Recv(c), obj) {
			return false, true
		}
		if fn := callee(c); fn != nil && p.local(fn) && depth < maxParamReadDepth {
			for i, a := range c.Args {
				if i < len(fn.Params) && isObjectOrMeta(a, obj) {
					return p.deletingPredicate(fn, fn.Params[i], depth+1)
				}
			}
		}
		if c.IsInvoke() && depth < maxParamReadDepth {
			return p.deletingMethod(c, obj, depth+1)
		}
	}
	return false, false
}

// deletingConjunction recognises a boolean kept from a conjunction with a
// test of the deletion timestamp (tearingDown := obj.DeletionTimestamp !=
// nil && ownerGone()): a phi that is true only through edges that come
// from where the timestamp is set, or that are tests true when it is; or
// the same for false (alive := obj.DeletionTimestamp == nil || !gone()).
func (p *Package) deletingConjunction(phi *ssa.Phi, obj map[ssa.Value]bool, depth int) (setIfTrue, ok bool) {
	if depth >= maxParamReadDepth || len(phi.Edges) != len(phi.Block().Preds) {
		return false, false
	}
	// onlyWhenSet reports whether the phi takes the value want only where
	// the timestamp is set: true for a conjunction, false for the
	// disjunction of a test that it is nil (alive := ts == nil || !gone).
	onlyWhenSet := func(want bool) bool {
		for i, e := range phi.Edges {
			if k, isConst := e.(*ssa.Const); isConst && k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value) != want {
				continue // never want through this edge
			}
			if set, isTest := p.deletionTest(e, obj, depth+1); isTest && set == want {
				continue
			}
			pred := phi.Block().Preds[i]
			if p.branchDeletingAt(obj, pred.Instrs[len(pred.Instrs)-1], depth+1) {
				continue
			}
			return false
		}
		return true
	}
	switch {
	case onlyWhenSet(true):
		return true, true
	case onlyWhenSet(false):
		return false, true
	}
	return false, false
}

// deletingMethod is deletingPredicate for a call through an interface
// (h.IsDeleted(job)): every method of the package it can dispatch to, and
// there is one, is a test of the deletion timestamp of the parameter given
// one of the objects, all the same way.
func (p *Package) deletingMethod(c *ssa.CallCommon, obj map[ssa.Value]bool, depth int) (setIfTrue, ok bool) {
	arg := -1
	for i, a := range c.Args {
		if isObjectOrMeta(a, obj) {
			arg = i
			break
		}
	}
	if arg < 0 {
		return false, false
	}
	n := 0
	for _, fn := range p.methods[c.Method.Name()] {
		if !dispatchesTo(c, fn) || arg+1 >= len(fn.Params) {
			continue
		}
		set, isTest := p.deletingPredicate(fn, fn.Params[arg+1], depth)
		if !isTest || n > 0 && set != setIfTrue {
			return false, false
		}
		setIfTrue = set
		n++
	}
	return setIfTrue, n > 0
}

// deletingPredicate says whether a function of one boolean result is a
// test of the deletion timestamp of its parameter prm, and which way: true
// when every return gives false or a test that is true when the timestamp
// is set (return o != nil && o.DeletionTimestamp != nil), false when every
// return gives true or a test that is false when it is set.
func (p *Package) deletingPredicate(fn *ssa.Function, prm *ssa.Parameter, depth int) (setIfTrue, ok bool) {
	if fn.Signature.Results().Len() != 1 {
		return false, false
	}
	obj := map[ssa.Value]bool{}
	for _, a := range p.objectAliases(prm) {
		obj[a] = true
	}
	var vals []ssa.Value
	for _, b := range fn.Blocks {
		if ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return); isRet {
			vals = append(vals, ret.Results[0])
		}
	}
	seen := map[ssa.Value]bool{}
	var consts [2]bool // a constant false, a constant true is returned
	var tests [2]bool  // a test true when the timestamp is set, or false
	for len(vals) > 0 {
		v := vals[len(vals)-1]
		vals = vals[:len(vals)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		if phi, isPhi := v.(*ssa.Phi); isPhi {
			vals = append(vals, phi.Edges...)
			continue
		}
		if k, isConst := v.(*ssa.Const); isConst && k.Value != nil && k.Value.Kind() == constant.Bool {
			if constant.BoolVal(k.Value) {
				consts[1] = true
			} else {
				consts[0] = true
			}
			continue
		}
		set, isTest := p.deletionTest(v, obj, depth)
		if !isTest {
			return false, false
		}
		if set {
			tests[0] = true
		} else {
			tests[1] = true
		}
	}
	switch {
	case tests[0] && !tests[1] && !consts[1]:
		return true, true
	case tests[1] && !tests[0] && !consts[0]:
		return false, true
	}
	return false, false
}

// deletionTimestamp reports whether v is the deletion timestamp of one of
// the objects: a load of the field or a call of GetDeletionTimestamp.
func deletionTimestamp(v ssa.Value, obj map[ssa.Value]bool) bool {
	if v == nil {
		return false
	}
	switch x := strip(v).(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		if !ok || st.Field(fa.Field).Name() != "DeletionTimestamp" {
			return false
		}
		return isObjectOrMeta(fa.X, obj)
	case *ssa.Call:
		r := model.Recv(x.Common())
		return r != nil && isObjectOrMeta(r, obj) && model.CalledName(x.Common()) == "GetDeletionTimestamp"
	}
	return false
}

// isObjectOrMeta reports whether v is one of the objects or the address of
// a struct embedded in one (&obj.ObjectMeta, the receiver of a promoted
// method).
func isObjectOrMeta(v ssa.Value, obj map[ssa.Value]bool) bool {
	for depth := 0; depth < maxFieldChain; depth++ {
		v = strip(v)
		if obj[v] {
			return true
		}
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		if !ok || !st.Field(fa.Field).Embedded() {
			return false
		}
		v = fa.X
	}
	return false
}

// rereadDeleting reports whether every origin of an object is a
// controller-runtime Get of it by the key of another object of its type
// (client.ObjectKeyFromObject(t), client.ObjectKey{Name: t.Name,
// Namespace: t.Namespace}) at which that object is being deleted: it is the
// same object read again, and a deletion timestamp, once set, is never
// unset (removeFinalizer(t) that fetches the latest version first).
func (p *Package) rereadDeleting(v ssa.Value, at ssa.Instruction, depth int) bool {
	origins := p.Object(v, at)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		c, ok := o.Site.(*ssa.Call)
		if o.Kind != Read || !ok {
			return false
		}
		mc, ok := model.Classify(c.Common())
		if !ok || mc.Client != model.ControllerRuntime || mc.Method != "Get" || mc.Obj != 2 || mc.Subresource != "" {
			return false
		}
		// The same kind: one Go type of one kind (not an unstructured
		// object or metadata, which any kind fills).
		src := keySource(model.Arg(c.Common(), 1))
		if src == nil || !types.Identical(src.Type(), strip(v).Type()) || !oneKind(src.Type()) {
			return false
		}
		if !p.whileDeleting(src, c, depth+1) {
			return false
		}
	}
	return true
}

// oneKind reports whether values of a type are objects of one kind: a
// pointer to a struct of a program's API, not an interface, an
// unstructured object or object metadata.
func oneKind(t types.Type) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || model.IsUnstructured(t) {
		return false
	}
	switch named.Obj().Name() {
	case "PartialObjectMetadata", "Unstructured":
		return false
	}
	_, isStruct := named.Underlying().(*types.Struct)
	return isStruct
}

// keySource returns the object whose key a key value is: the argument of
// client.ObjectKeyFromObject, or the object whose name a composite key's
// Name is (t.Name, t.GetName()), its namespace, when set, the same one's;
// nil if there is none.
func keySource(key ssa.Value) ssa.Value {
	key = strip(key)
	if c, ok := key.(*ssa.Call); ok {
		if fn := c.Common().StaticCallee(); fn != nil && fn.Name() == "ObjectKeyFromObject" && len(c.Common().Args) == 1 {
			return strip(c.Common().Args[0])
		}
		return nil
	}
	lit := loadedLocal(key)
	if lit == nil {
		return nil
	}
	st, ok := lit.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var name, ns ssa.Value
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i).Name()
		if f != "Name" && f != "Namespace" {
			continue
		}
		vals := storesInField(lit, i)
		if len(vals) > 1 || f == "Name" && len(vals) == 0 {
			return nil // set twice, or no name
		}
		if len(vals) == 0 {
			continue
		}
		src := metaSource(vals[0], f)
		if src == nil {
			return nil
		}
		if f == "Name" {
			name = src
		} else {
			ns = src
		}
	}
	if name == nil || ns != nil && ns != name {
		return nil
	}
	return name
}

// metaSource returns the object whose metadata field f (Name or Namespace)
// v is: a load of t.F (or t.ObjectMeta.F), or t.GetF(); nil otherwise.
func metaSource(v ssa.Value, f string) ssa.Value {
	switch x := strip(v).(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if x.Op != token.MUL || !ok || FieldName(fa) != f {
			return nil
		}
		base := strip(fa.X)
		if meta, ok := base.(*ssa.FieldAddr); ok && FieldName(meta) == "ObjectMeta" {
			base = strip(meta.X)
		}
		return base
	case *ssa.Call:
		name := ""
		if x.Common().IsInvoke() {
			name = x.Common().Method.Name()
		} else if fn := x.Common().StaticCallee(); fn != nil {
			name = fn.Name()
		}
		if name == "Get"+f {
			return strip(model.Recv(x.Common()))
		}
	}
	return nil
}
