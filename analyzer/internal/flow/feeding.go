package flow

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Feeding returns the reads whose data a value is computed from: walking
// back through operands (field loads, formatting, marshalling, ...), the
// origins of every object met on the way.
func (p *Package) Feeding(v ssa.Value) []Origin {
	return p.feeding(v, func(o Origin) bool { return o.Kind == Read || o.Kind == CacheRead })
}

// feeding returns the origins, of those keep accepts, of the objects a value
// is computed from.
func (p *Package) feeding(v ssa.Value, keep func(Origin) bool) []Origin {
	if v == nil {
		return nil
	}
	var out []Origin
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{v}
	for len(work) > 0 && len(seen) < maxFeedingValues {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == nil || seen[x] {
			continue
		}
		seen[x] = true
		switch x.(type) {
		case *ssa.Const, *ssa.Function, *ssa.Global, *ssa.Builtin:
			continue
		}
		if isObjectType(x.Type()) {
			for _, o := range p.describe(x).origins {
				if keep(o) {
					out = append(out, o)
				}
			}
			for _, e := range p.describe(x).events {
				if e.kind == evFill && e.src == nil && keep(e.origin) {
					out = append(out, e.origin)
				}
			}
		}
		if instr, ok := x.(ssa.Instruction); ok {
			if ld, ok := x.(*ssa.UnOp); ok && ld.Op == token.MUL && isVariable(ld.X) {
				work = append(work, p.storedValues(root(ld.X, p))...)
			}
			var ops []*ssa.Value
			for _, op := range instr.Operands(ops) {
				if op != nil && *op != nil {
					work = append(work, *op)
				}
			}
		}
		switch x.(type) {
		case *ssa.Alloc, *ssa.MakeMap, *ssa.MakeSlice:
			// Literals: what is stored into them.
			work = append(work, contents(x)...)
		}
		if fv, ok := x.(*ssa.FreeVar); ok {
			if b, ok := p.bindings[fv]; ok {
				work = append(work, b)
			}
		}
	}
	return dedupOrigins(out)
}

// contents returns the values stored into a literal: its fields, elements
// and map entries.
func contents(x ssa.Value) []ssa.Value {
	var out []ssa.Value
	refs := x.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.MapUpdate:
			out = append(out, r.Key, r.Value)
		case *ssa.Store:
			if r.Addr == x {
				out = append(out, r.Val)
			}
		case *ssa.FieldAddr, *ssa.IndexAddr:
			for _, rr := range ssax.Referrers(r.(ssa.Value)) {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == r.(ssa.Value) {
					out = append(out, st.Val)
				}
			}
		}
	}
	return out
}
