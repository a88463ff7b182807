package flow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// copyBack reports whether a value stored whole into a struct field (path
// field of an object in obj) is a changed copy of that same field
// (desired := obj.Status; mutate(&desired); obj.Status = desired) whose
// fields are each set by the code from elsewhere, not from the struct read:
// a merge patch from a snapshot carries only the fields that changed, each
// desired state. Not when a field of the copy is set from a value of the
// copy or the object (desired.Attempts = desired.Attempts+1), nor, where the
// struct holds a list or map, when one of those is read from the copy at
// all (appended to, changed in place, its address given to a call: the
// list read, changed, sent whole).
func (p *Package) copyBack(v ssa.Value, obj map[ssa.Value]bool, field string, ft types.Type) bool {
	cp := loadedLocal(v)
	if cp == nil {
		return false
	}
	lists := holdsList(ft, 0)
	isObjOrCopy := func(o ssa.Value) bool { return obj[o] || o == cp }
	copied := false
	for _, r := range ssax.Referrers(cp) {
		switch r := r.(type) {
		case *ssa.UnOp:
			// A load of the copy whole: the one stored back, or one
			// compared with the object (reflect.DeepEqual). Any other
			// shares the copy's lists with where it goes.
			if lists && r != strip(v) && !onlyCompared(r) {
				return false
			}
		case *ssa.Store:
			if r.Addr != cp {
				return false // the copy's address kept somewhere
			}
			init, ok := strip(r.Val).(*ssa.UnOp)
			if !ok || init.Op != token.MUL {
				return false
			}
			if path, ok := readsObjectField(init.X, func(o ssa.Value) bool { return obj[o] }); !ok || path != field {
				return false // the copy is of something else
			}
			copied = true
		case *ssa.FieldAddr:
			if !p.setFromElsewhere(r, isObjOrCopy) {
				return false
			}
		case *ssa.MakeClosure:
			return false // captured: changed whenever the closure runs
		case ssa.CallInstruction:
			if !p.changesFromElsewhere(r, cp, lists) {
				return false
			}
		}
	}
	return copied
}

// changesFromElsewhere reports whether a call given the address of a copy
// (mutate(&desired)) sets its fields only from elsewhere: the functions it
// may call are known (a function or closure, or, for a function
// parameter, the closures the calls of the function in the package give
// it), and none sets a field of the copy from one of its own
// (s.Attempts++).
func (p *Package) changesFromElsewhere(c ssa.CallInstruction, cp ssa.Value, lists bool) bool {
	common := c.Common()
	if common.IsInvoke() {
		return false
	}
	var callees []*ssa.Function
	if fn := funcValue(common.Value); fn != nil {
		callees = append(callees, fn)
	} else if fv, ok := strip(common.Value).(*ssa.Parameter); ok {
		calls := p.callsOf[fv.Parent()]
		if len(calls) == 0 {
			return false
		}
		for _, call := range calls {
			arg := argFor(call.Common(), fv)
			if arg == nil {
				return false
			}
			fn := funcValue(arg)
			if fn == nil {
				return false
			}
			callees = append(callees, fn)
		}
	} else {
		return false
	}
	for _, fn := range callees {
		if len(fn.Blocks) == 0 {
			return false
		}
		for i, a := range common.Args {
			if a != cp {
				continue
			}
			if i >= len(fn.Params) {
				return false
			}
			prm := fn.Params[i]
			for _, r := range ssax.Referrers(prm) {
				switch r := r.(type) {
				case *ssa.FieldAddr:
					if !p.setFromElsewhere(r, func(o ssa.Value) bool { return o == prm }) {
						return false
					}
				case *ssa.UnOp:
					if lists && !onlyCompared(r) {
						return false // the copy whole, its lists shared
					}
				case *ssa.DebugRef, *ssa.BinOp:
				default:
					return false // given on, or kept
				}
			}
		}
	}
	return true
}

// setFromElsewhere reports whether every store through a field address of
// a copy (and the addresses within it) stores a value not computed from a
// field of the copy or of the object, and a field that holds a list or a
// map is not read (a load of it may be changed in place or appended to).
func (p *Package) setFromElsewhere(fa *ssa.FieldAddr, isObj func(ssa.Value) bool) bool {
	for _, r := range ssax.Referrers(fa) {
		switch r := r.(type) {
		case *ssa.UnOp:
			if holdsList(fa.Type().Underlying().(*types.Pointer).Elem(), 0) && !onlyCompared(r) {
				return false
			}
		case *ssa.IndexAddr:
			return false // an element of an array field
		case *ssa.Store:
			if r.Addr == fa && p.ReadFrom(r.Val, isObj) != nil {
				return false
			}
		case *ssa.FieldAddr:
			if !p.setFromElsewhere(r, isObj) {
				return false
			}
		case ssa.CallInstruction:
			return false // the field's address given to a function: bump(&s.Count)
		}
	}
	return true
}

// onlyCompared reports whether a loaded value is used only by functions
// that read what they are given and keep nothing (reflect.DeepEqual,
// equality.Semantic.DeepEqual, logging).
func onlyCompared(ld *ssa.UnOp) bool {
	for _, r := range ssax.Referrers(ld) {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.MakeInterface:
			for _, u := range ssax.Referrers(r) {
				c, ok := u.(ssa.CallInstruction)
				if !ok || !model.IsReadOnly(c.Common()) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// holdsList reports whether a type is, or holds in an exported field
// (through pointers and nested structs), a slice, an array, a map or an
// interface.
func holdsList(t types.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Interface, *types.Array:
		return true
	case *types.Pointer:
		return holdsList(u.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			// Only what JSON sends: a time's fields are unexported.
			if u.Field(i).Exported() && holdsList(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// loadedLocal returns the local variable (an Alloc) whose load v is, or nil.
func loadedLocal(v ssa.Value) *ssa.Alloc {
	ld, ok := strip(v).(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	a, _ := ld.X.(*ssa.Alloc)
	return a
}
