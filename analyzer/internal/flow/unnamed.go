package flow

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Unnamed reports whether an object is built in the function with a
// generateName and no name, and given to nothing that could name it before
// at: a lookup by its key (controllerutil.CreateOrPatch's Get) never finds
// it, so the call creates it and sends no patch.
func (p *Package) Unnamed(obj ssa.Value, at ssa.Instruction) bool {
	origins := p.Object(obj, at)
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		alloc, ok := o.Site.(*ssa.Alloc)
		if o.Kind != Constructed || !ok || alloc.Parent() != at.Parent() || againWithout(at.Block(), alloc.Block()) || !p.builtWithGenerateName(alloc, at) {
			return false
		}
	}
	return true
}

// againWithout reports whether block b can run again without block a
// running in between: a loop around b that a is not in (the object built
// before a loop whose every round creates or patches it: the first round's
// Create gives it a name).
func againWithout(b, a *ssa.BasicBlock) bool {
	if a == b {
		return false // built again in every round
	}
	seen := map[*ssa.BasicBlock]bool{a: true}
	work := slices.Clone(b.Succs)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return false
}

func (p *Package) builtWithGenerateName(alloc *ssa.Alloc, at ssa.Instruction) bool {
	// The functions given to the call (a mutate function) run after its
	// lookup: what they do to the object does not decide what it finds.
	var given []*ssa.Function
	if c, ok := at.(ssa.CallInstruction); ok {
		for _, arg := range c.Common().Args {
			if mc, ok := strip(arg).(*ssa.MakeClosure); ok {
				given = append(given, mc.Fn.(*ssa.Function))
			}
		}
	}
	generated := false
	for _, a := range p.aliases(alloc) {
		for _, r := range ssax.Referrers(a) {
			if slices.ContainsFunc(given, func(fn *ssa.Function) bool { return within(r.Parent(), fn) }) {
				continue
			}
			switch r := r.(type) {
			case *ssa.FieldAddr:
				if FieldName(r) != "ObjectMeta" {
					continue
				}
				named, gen := metaNames(r, map[ssa.Value]bool{})
				if named {
					return false
				}
				generated = generated || gen
			case *ssa.Store:
				if r.Val == a && !isVariable(r.Addr) {
					return false // kept somewhere else (a variable's loads are aliases)
				}
				if r.Addr == a {
					return false // the whole object replaced
				}
			case ssa.CallInstruction:
				if r == at {
					continue
				}
				if m := model.ObjectMethod(r.Common()); m == model.DeepCopy {
					continue
				}
				return false // SetName, or a helper that may name it
			}
		}
	}
	return generated
}

// metaNames reports, of the address of an object's metadata, whether a name
// may be set through it (a store of the name, a whole metadata stored other
// than a literal that names nothing, a call given it: SetName), and whether
// a generateName is.
func metaNames(meta ssa.Value, seen map[ssa.Value]bool) (named, generated bool) {
	if seen[meta] {
		return true, false // metadata variables stored into each other
	}
	seen[meta] = true
	for _, r := range ssax.Referrers(meta) {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			switch FieldName(r) {
			case "Name":
				// Only loads: a store, or the address given to a call, may name it.
				for _, u := range ssax.Referrers(r) {
					if ld, ok := u.(*ssa.UnOp); !ok || ld.Op != token.MUL {
						if _, dbg := u.(*ssa.DebugRef); !dbg {
							return true, false
						}
					}
				}
			case "GenerateName":
				for _, s := range ssax.Referrers(r) {
					if st, ok := s.(*ssa.Store); ok && st.Addr == r && !emptyString(st.Val) {
						generated = true
					}
				}
			}
		case *ssa.Store:
			if r.Addr != meta {
				return true, false // kept somewhere else
			}
			// obj.ObjectMeta = metav1.ObjectMeta{GenerateName: ...}
			lit := loadedLocal(r.Val)
			if lit == nil {
				if k, ok := r.Val.(*ssa.Const); ok && k.IsNil() {
					continue // the zero metadata
				}
				return true, false
			}
			n, g := metaNames(lit, seen)
			if n {
				return true, false
			}
			generated = generated || g
		case ssa.CallInstruction:
			return true, false // SetName, or a helper given the metadata
		}
	}
	return false, generated
}

// emptyString reports whether v is the constant "".
func emptyString(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.String && constant.StringVal(k.Value) == ""
}
