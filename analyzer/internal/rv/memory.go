package rv

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// Memory: a location is a node of a union-find structure. Values that refer
// to the same container or cell (through phis, stores, appends, slicing,
// parameters and results) are one node; a node has a node for its elements
// and one for its keys, merged when two nodes are (as in Steensgaard's
// analysis). A node's tags are what is stored in it.
//
// Locations are: a local variable (Alloc), a global, a field of the
// program's own types (one location per field, for every object), a field of
// a modelled library's type (one location per load, so that the
// annotations of two objects are not merged), and the elements and keys of a
// container.

type node struct {
	parent    *node
	elem, key *node
	tags      tagset
}

func find(n *node) *node {
	for n.parent != nil {
		if n.parent.parent != nil {
			n.parent = n.parent.parent
		}
		n = n.parent
	}
	return n
}

func (s *state) node(k any) *node {
	n := s.nodes[k]
	if n == nil {
		n = &node{}
		s.nodes[k] = n
	}
	return find(n)
}

func (s *state) union(a, b *node) {
	a, b = find(a), find(b)
	if a == b {
		return
	}
	b.parent = a
	a.tags, _ = a.tags.union(b.tags)
	ae, be := a.elem, b.elem
	switch {
	case ae == nil:
		a.elem = be
	case be != nil:
		s.union(ae, be)
	}
	ak, bk := a.key, b.key
	switch {
	case ak == nil:
		a.key = bk
	case bk != nil:
		s.union(ak, bk)
	}
}

func (s *state) elemOf(n *node) *node {
	n = find(n)
	if n.elem == nil {
		n.elem = &node{}
	}
	return find(n.elem)
}

func (s *state) keyOf(n *node) *node {
	n = find(n)
	if n.key == nil {
		n.key = &node{}
	}
	return find(n.key)
}

// valNode returns the node of a value that refers to a container or a cell.
func (s *state) valNode(v ssa.Value) *node {
	switch x := v.(type) {
	case *ssa.FreeVar:
		if b, ok := s.bindings[x]; ok {
			return s.valNode(b)
		}
	case *ssa.Global:
		return s.node(x.Object())
	}
	return s.node(v)
}

// locOf returns the location an address refers to.
func (s *state) locOf(addr ssa.Value) *node {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		return s.fieldNode(x, x.X.Type(), x.Field)
	case *ssa.IndexAddr:
		return s.elemOf(s.valNode(x.X))
	}
	return s.valNode(addr)
}

// fieldNode returns the location of field idx of struct (or pointer to
// struct) type t, read or addressed by at.
func (s *state) fieldNode(at ssa.Value, t types.Type, idx int) *node {
	st := structOf(t)
	if st == nil || idx >= st.NumFields() {
		return s.node(at)
	}
	if n := namedOf(t); n != nil && n.Obj().Pkg() != nil && model.IsModelled(n.Obj().Pkg().Path()) {
		return s.node(at)
	}
	return s.node(st.Field(idx).Origin())
}

// isRef reports whether values of type t refer to a container or a cell.
func isRef(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Array, *types.Pointer, *types.Chan, *types.Signature:
		return true
	}
	return false
}

// unify merges the nodes an instruction relates.
func (s *state) unify(instr ssa.Instruction) {
	switch x := instr.(type) {
	case *ssa.Phi:
		if isRef(x.Type()) {
			for _, e := range x.Edges {
				s.union(s.valNode(x), s.valNode(e))
			}
		}
	case *ssa.UnOp:
		if isRef(x.Type()) {
			switch x.Op {
			case token.MUL:
				s.union(s.valNode(x), s.locOf(x.X))
			case token.ARROW:
				if !x.CommaOk {
					s.union(s.valNode(x), s.elemOf(s.valNode(x.X)))
				}
			}
		}
	case *ssa.Store:
		if isRef(x.Val.Type()) {
			s.union(s.locOf(x.Addr), s.valNode(x.Val))
		}
	case *ssa.Field:
		if isRef(x.Type()) {
			s.union(s.valNode(x), s.fieldNode(x, x.X.Type(), x.Field))
		}
	case *ssa.Slice:
		if !isString(x.X.Type()) {
			s.union(s.valNode(x), s.valNode(x.X))
		}
	case *ssa.Convert:
		if isRef(x.Type()) && isRef(x.X.Type()) {
			s.union(s.valNode(x), s.valNode(x.X))
		}
	case *ssa.ChangeType:
		if isRef(x.Type()) {
			s.union(s.valNode(x), s.valNode(x.X))
		}
	case *ssa.MakeInterface:
		if isRef(x.X.Type()) {
			s.union(s.valNode(x), s.valNode(x.X))
		}
	case *ssa.ChangeInterface:
		s.union(s.valNode(x), s.valNode(x.X))
	case *ssa.TypeAssert:
		if isRef(x.AssertedType) {
			s.union(s.valNode(x), s.valNode(x.X))
		}
	case *ssa.Lookup:
		if _, ok := x.X.Type().Underlying().(*types.Map); ok && !x.CommaOk && isRef(x.Type()) {
			s.union(s.valNode(x), s.elemOf(s.valNode(x.X)))
		}
	case *ssa.Index:
		if isRef(x.Type()) {
			s.union(s.valNode(x), s.elemOf(s.valNode(x.X)))
		}
	case *ssa.MapUpdate:
		if isRef(x.Value.Type()) {
			s.union(s.elemOf(s.valNode(x.Map)), s.valNode(x.Value))
		}
	case *ssa.Send:
		if isRef(x.X.Type()) {
			s.union(s.elemOf(s.valNode(x.Chan)), s.valNode(x.X))
		}
	case *ssa.Extract:
		if !isRef(x.Type()) {
			return
		}
		switch t := x.Tuple.(type) {
		case *ssa.Call:
			s.union(s.valNode(x), s.node(srcKey{t, x.Index}))
		case *ssa.Lookup:
			if x.Index == 0 {
				s.union(s.valNode(x), s.elemOf(s.valNode(t.X)))
			}
		case *ssa.TypeAssert:
			if x.Index == 0 {
				s.union(s.valNode(x), s.valNode(t.X))
			}
		case *ssa.Next:
			if r, ok := t.Iter.(*ssa.Range); ok && !t.IsString {
				switch x.Index {
				case 1:
					s.union(s.valNode(x), s.keyOf(s.valNode(r.X)))
				case 2:
					s.union(s.valNode(x), s.elemOf(s.valNode(r.X)))
				}
			}
		}
	case *ssa.MakeClosure:
		if fn, ok := x.Fn.(*ssa.Function); ok {
			for j, fv := range fn.FreeVars {
				if j < len(x.Bindings) && isRef(fv.Type()) {
					s.union(s.node(fv), s.valNode(x.Bindings[j]))
				}
			}
		}
	case ssa.CallInstruction:
		s.unifyCall(x)
	}
}

// resultNode returns the node of result idx of a call.
func (s *state) resultNode(call *ssa.Call, idx int) *node {
	if _, ok := call.Type().(*types.Tuple); ok {
		return s.node(srcKey{call, idx})
	}
	return s.valNode(call)
}

func (s *state) unifyCall(instr ssa.CallInstruction) {
	c := instr.Common()
	call, _ := instr.(*ssa.Call)
	if b, ok := c.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "append":
			if call != nil && len(c.Args) == 2 {
				s.union(s.valNode(call), s.valNode(c.Args[0]))
				if !isString(c.Args[1].Type()) {
					s.union(s.elemOf(s.valNode(c.Args[0])), s.elemOf(s.valNode(c.Args[1])))
				}
			}
		case "copy":
			if len(c.Args) == 2 && !isString(c.Args[1].Type()) {
				s.union(s.elemOf(s.valNode(c.Args[0])), s.elemOf(s.valNode(c.Args[1])))
			}
		}
		return
	}
	if call != nil {
		if cf, ok := model.ContainerOf(s.calleeName(c)); ok && len(model.Args(c)) > 0 {
			arg := s.valNode(model.Args(c)[0])
			res := s.resultNode(call, 0)
			switch cf {
			case model.SameElems:
				s.union(s.elemOf(res), s.elemOf(arg))
			case model.KeysElems:
				s.union(s.elemOf(res), s.keyOf(arg))
			case model.SameKeys:
				s.union(s.elemOf(res), s.elemOf(arg))
				s.union(s.keyOf(res), s.keyOf(arg))
			}
			return
		}
	}
	fn := s.localCallee(c)
	if fn == nil {
		return
	}
	for i, p := range fn.Params {
		if i < len(c.Args) && isRef(p.Type()) {
			s.union(s.valNode(p), s.valNode(c.Args[i]))
		}
	}
	if call == nil {
		return
	}
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			for i, r := range ret.Results {
				if isRef(r.Type()) {
					s.union(s.resultNode(call, i), s.valNode(r))
				}
			}
		}
	}
}
