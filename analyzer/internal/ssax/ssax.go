// Package ssax holds the small operations on SSA values that several
// packages of lostupdate need and that know nothing of any library: looking
// through conversions, the bindings of closures, the arguments packed into
// a variadic parameter.
//
// What a call is (its callee's name, the role of a library function) is
// package model's; naming a callee for the catalog is model.CalleeName and
// model.FunctionName, and the JSON name of a struct field is
// model.JSONName.
package ssax

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Strip removes the conversions that keep the identity of a value:
// interface conversions, named-type changes, conversions and type
// assertions that cannot fail.
func Strip(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.TypeAssert:
			if x.CommaOk {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
}

// ConcreteType returns the type of a value before it was converted to an
// interface (or to another named type of the same underlying type).
func ConcreteType(v ssa.Value) types.Type {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		default:
			return v.Type()
		}
	}
}

// Closures are the closures made in a set of functions.
type Closures struct {
	// Bindings maps each free variable of a closure to the value its
	// MakeClosure binds to it.
	Bindings map[*ssa.FreeVar]ssa.Value
	// Made maps each closure to the MakeClosure that makes it.
	Made map[*ssa.Function]*ssa.MakeClosure
}

// ClosuresOf finds the closures the functions make. A closure made twice
// (a generic function's instances) keeps the last.
func ClosuresOf(funcs []*ssa.Function) Closures {
	cs := Closures{Bindings: map[*ssa.FreeVar]ssa.Value{}, Made: map[*ssa.Function]*ssa.MakeClosure{}}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				cs.add(instr)
			}
		}
	}
	return cs
}

// add records a MakeClosure; other instructions are ignored.
func (cs Closures) add(instr ssa.Instruction) {
	mc, ok := instr.(*ssa.MakeClosure)
	if !ok {
		return
	}
	cl, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	cs.Made[cl] = mc
	for j, fv := range cl.FreeVars {
		if j < len(mc.Bindings) {
			cs.Bindings[fv] = mc.Bindings[j]
		}
	}
}

// Element is a value stored into the element Index of an array.
type Element struct {
	Index int64
	Value ssa.Value // stripped
}

// VariadicElements returns the stores into the array behind a variadic
// argument (f(a, b) packs a and b into a new array and passes a slice of
// it), in the order of the array's referrers: nil when v is not a slice of
// a local array. An element stored more than once appears as often.
func VariadicElements(v ssa.Value) []Element {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var els []Element
	for _, r := range Referrers(arr) {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		c, ok := ia.Index.(*ssa.Const)
		if !ok || c.Value == nil {
			continue
		}
		i, _ := constant.Int64Val(c.Value)
		for _, rr := range Referrers(ia) {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == ia {
				els = append(els, Element{i, Strip(st.Val)})
			}
		}
	}
	return els
}

// IsJSONList reports whether t is a slice that encodes as a JSON list: any
// slice but []byte, which encodes as a base64 string.
func IsJSONList(t types.Type) bool {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := sl.Elem().Underlying().(*types.Basic)
	return !ok || b.Kind() != types.Byte
}

// Referrers returns the instructions that use v, or nil for a value that
// keeps no list of them (a constant, a global, a function): code that walks
// the uses of whatever value it is given must not dereference a nil list.
func Referrers(v interface{ Referrers() *[]ssa.Instruction }) []ssa.Instruction {
	if v == nil {
		return nil
	}
	if refs := v.Referrers(); refs != nil {
		return *refs
	}
	return nil
}
