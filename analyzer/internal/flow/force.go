package flow

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Forced reports whether a Server-Side Apply takes ownership by force:
// ApplyOptions{Force: true}, PatchOptions{Force: ptr.To(true)},
// client.ForceOwnership, written at the call or kept in a variable, a
// closure's captured variable, a package variable or a slice of options
// built up with append.
func (p *Package) Forced(c *ssa.CallCommon) bool {
	seen := map[ssa.Value]bool{}
	for _, arg := range model.Args(c) {
		if p.hasForce(arg, seen, 0) {
			return true
		}
	}
	return false
}

// maxForceDepth caps the values hasForce follows from an argument of an
// apply to its Force option.
const maxForceDepth = 10

func (p *Package) hasForce(v ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	if depth > maxForceDepth || v == nil || seen[v] {
		return false
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return p.hasForce(x.X, seen, depth+1)
	case *ssa.ChangeType:
		return p.hasForce(x.X, seen, depth+1)
	case *ssa.Slice:
		return p.hasForce(x.X, seen, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if p.hasForce(e, seen, depth+1) {
				return true
			}
		}
	case *ssa.Call:
		// opts = append(opts, client.ForceOwnership)
		if b, ok := x.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
			for _, a := range x.Call.Args {
				if p.hasForce(a, seen, depth+1) {
					return true
				}
			}
		}
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok && model.IsForceOwnership(g) {
			return true
		}
		if x.Op == token.MUL {
			return p.hasForce(x.X, seen, depth+1)
		}
	case *ssa.FreeVar:
		return p.hasForce(p.bindings[x], seen, depth+1)
	case *ssa.Global:
		if x.Pkg != p.Pkg {
			return false
		}
		if val := p.fixedGlobal(x); val != nil {
			return p.hasForce(val, seen, depth+1)
		}
		// var opts = metav1.ApplyOptions{Force: true}: the package
		// initialiser sets the fields in place.
		return storesForce(p.globalFieldAddrs(x))
	case *ssa.Alloc:
		var addrs []*ssa.FieldAddr
		for _, r := range ssax.Referrers(x) {
			switch a := r.(type) {
			case *ssa.FieldAddr:
				addrs = append(addrs, a)
			case *ssa.IndexAddr:
				for _, rr := range ssax.Referrers(a) {
					if st, ok := rr.(*ssa.Store); ok && st.Addr == a && p.hasForce(st.Val, seen, depth+1) {
						return true
					}
				}
			case *ssa.Store:
				if a.Addr == x && p.hasForce(a.Val, seen, depth+1) {
					return true
				}
			}
		}
		return storesForce(addrs)
	}
	return false
}

// storesForce reports whether one of the field addresses of a variable is
// its Force field, set to something other than false.
func storesForce(addrs []*ssa.FieldAddr) bool {
	for _, a := range addrs {
		if FieldName(a) != "Force" {
			continue
		}
		for _, rr := range ssax.Referrers(a) {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == a && !isFalse(st.Val) {
				return true
			}
		}
	}
	return false
}

// globalFieldAddrs returns the addresses of fields of a package variable
// taken in the package's functions and its initialiser.
func (p *Package) globalFieldAddrs(g *ssa.Global) []*ssa.FieldAddr {
	fns := p.Funcs
	if init := p.Pkg.Func("init"); init != nil {
		fns = append(fns[:len(fns):len(fns)], init)
	}
	var out []*ssa.FieldAddr
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if fa, ok := instr.(*ssa.FieldAddr); ok && fa.X == g {
					out = append(out, fa)
				}
			}
		}
	}
	return out
}

func isFalse(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && (c.Value == nil || c.Value.String() == "false")
}
