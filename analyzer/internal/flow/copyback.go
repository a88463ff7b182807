package flow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// scalarCopyBack reports whether a value stored whole into a struct field
// (path field of an object in obj) is a changed copy of that same field, of
// a struct that holds no list or map (desired := obj.Status;
// mutate(&desired); obj.Status = desired): a merge patch from a snapshot
// carries only the scalars that changed, each set by the code from
// elsewhere, not the struct read. Not when a scalar of the copy is set from
// a value of the copy or the object (desired.Attempts = desired.Attempts+1).
func (p *Package) scalarCopyBack(v ssa.Value, obj map[ssa.Value]bool, field string, ft types.Type) bool {
	if holdsList(ft, 0) {
		return false
	}
	cp := loadedLocal(v)
	if cp == nil {
		return false
	}
	isObjOrCopy := func(o ssa.Value) bool { return obj[o] || o == cp }
	copied := false
	for _, r := range ssax.Referrers(cp) {
		switch r := r.(type) {
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
			if !p.changesFromElsewhere(r, cp) {
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
func (p *Package) changesFromElsewhere(c ssa.CallInstruction, cp ssa.Value) bool {
	common := c.Common()
	if common.IsInvoke() {
		return false
	}
	var callees []*ssa.Function
	switch fv := strip(common.Value).(type) {
	case *ssa.Function:
		callees = append(callees, fv)
	case *ssa.MakeClosure:
		callees = append(callees, fv.Fn.(*ssa.Function))
	case *ssa.Parameter:
		calls := p.callsOf[fv.Parent()]
		if len(calls) == 0 {
			return false
		}
		for _, call := range calls {
			arg := argFor(call.Common(), fv)
			if arg == nil {
				return false
			}
			switch f := strip(arg).(type) {
			case *ssa.Function:
				callees = append(callees, f)
			case *ssa.MakeClosure:
				callees = append(callees, f.Fn.(*ssa.Function))
			default:
				return false
			}
		}
	default:
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
				case *ssa.UnOp, *ssa.DebugRef, *ssa.BinOp:
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
// field of the copy or of the object.
func (p *Package) setFromElsewhere(fa *ssa.FieldAddr, isObj func(ssa.Value) bool) bool {
	for _, r := range ssax.Referrers(fa) {
		switch r := r.(type) {
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
