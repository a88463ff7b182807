package flow

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// writtenWithRV reports whether a write reaches a parameter's object only
// when that object carries a resourceVersion: the write, or every edge by
// which the parameter flows into the object written, is taken only after a
// test of the parameter's resourceVersion found it set. A create-or-update
// helper that Creates an object without one and writes the object it reads
// back instead (if obj.GetResourceVersion() == "" { newObj = createAndGet(obj) };
// Update(newObj)) sends a caller's built object with no PUT of it.
func (p *Package) writtenWithRV(fn *ssa.Function, w *WriteSite, prm *ssa.Parameter) bool {
	if w.Obj == nil || w.Call == nil || w.Call.Parent() != fn {
		return false
	}
	var set []rvEdge
	for _, b := range fn.Blocks {
		if e, ok := p.rvSetEdge(b, prm); ok {
			set = append(set, e)
		}
	}
	if len(set) == 0 {
		return false
	}
	under := func(from, to *ssa.BasicBlock) bool {
		for _, e := range set {
			if from == e.from && to == e.to || len(e.to.Preds) == 1 && e.to.Dominates(from) {
				return true
			}
		}
		return false
	}
	if under(w.Call.Block(), nil) {
		return true
	}
	phi, ok := strip(w.Obj).(*ssa.Phi)
	if !ok {
		return false
	}
	// The other edges bring an object read (createAndGet's Get): one
	// of unknown provenance may be the parameter (create, and on
	// AlreadyExists hand back the object built).
	found := false
	for i, edge := range phi.Edges {
		if !p.fromParam(edge, phi, prm) {
			if !p.allRead(edge, phi) {
				return false
			}
			continue
		}
		if !under(phi.Block().Preds[i], phi.Block()) {
			return false
		}
		found = true
	}
	return found
}

// allRead reports whether every origin of a value is an object read, not
// one a write filled with the server's answer (a Create returns the
// object it was given, refilled when it succeeded, as built when it
// exists already).
func (p *Package) allRead(v ssa.Value, at ssa.Instruction) bool {
	return p.allReadAt(v, at, 0)
}

func (p *Package) allReadAt(v ssa.Value, at ssa.Instruction, depth int) bool {
	origins := p.Object(v, at)
	for _, o := range origins {
		if o.Kind != Read && o.Kind != Precondition {
			return false
		}
		if c, ok := o.Site.(ssa.CallInstruction); ok && o.Via == nil {
			if mc, ok := model.Classify(c.Common()); ok && mc.Op != model.OpRead && mc.Op != model.OpCacheRead {
				return false // refilled by a write
			}
		}
		if o.Via != nil {
			// A helper of the package: what its returns are, read again.
			fn := p.Pkg.Prog.FuncValue(o.Via)
			if fn == nil || fn.Pkg != p.Pkg {
				continue // another package's: its summary says
			}
			if depth >= maxCallerDepth || !p.returnsRead(fn, depth+1) {
				return false
			}
		}
	}
	return len(origins) > 0
}

// returnsRead reports whether every object a function returns (a result
// of an object type, not nil) is an object read.
func (p *Package) returnsRead(fn *ssa.Function, depth int) bool {
	found := false
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for _, r := range ret.Results {
			if !isObjectType(r.Type()) {
				continue
			}
			if k, ok := strip(r).(*ssa.Const); ok && k.IsNil() {
				continue
			}
			if !p.allReadAt(r, ret, depth) {
				return false
			}
			found = true
		}
	}
	return found
}

// fromParam reports whether a value is the parameter's object, or a copy of it.
func (p *Package) fromParam(v ssa.Value, at ssa.Instruction, prm *ssa.Parameter) bool {
	for _, o := range p.Object(v, at) {
		if o.Param == prm {
			return true
		}
	}
	return false
}

// rvEdge is the edge of an if on which a resourceVersion was found set.
type rvEdge struct{ from, to *ssa.BasicBlock }

// rvSetEdge returns the edge out of block b taken when the parameter's
// resourceVersion is set, when b ends in a test of it: rv == "", rv != "",
// len(rv) == 0, len(rv) != 0 or len(rv) > 0, where rv is
// obj.GetResourceVersion() or obj.ResourceVersion.
func (p *Package) rvSetEdge(b *ssa.BasicBlock, prm *ssa.Parameter) (rvEdge, bool) {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return rvEdge{}, false
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return rvEdge{}, false
	}
	cmp, ok := iff.Cond.(*ssa.BinOp)
	if !ok {
		return rvEdge{}, false
	}
	x, y, op := cmp.X, cmp.Y, cmp.Op
	if _, isConst := x.(*ssa.Const); isConst {
		x, y = y, x
		switch op {
		case token.GTR:
			op = token.LSS
		case token.LSS:
			op = token.GTR
		}
	}
	k, ok := y.(*ssa.Const)
	if !ok || k.Value == nil {
		return rvEdge{}, false
	}
	rv := x
	switch k.Value.Kind() {
	case constant.String:
		if !emptyString(k) {
			return rvEdge{}, false
		}
	case constant.Int:
		call, ok := x.(*ssa.Call)
		if !ok || constant.Sign(k.Value) != 0 || len(call.Call.Args) != 1 {
			return rvEdge{}, false
		}
		if bi, ok := call.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "len" {
			return rvEdge{}, false
		}
		rv = call.Call.Args[0]
	default:
		return rvEdge{}, false
	}
	obj, _ := rvSource(rv)
	if obj == nil || !p.fromParam(obj, iff, prm) {
		return rvEdge{}, false
	}
	switch op {
	case token.EQL:
		return rvEdge{b, b.Succs[1]}, true
	case token.NEQ, token.GTR:
		return rvEdge{b, b.Succs[0]}, true
	}
	return rvEdge{}, false
}
