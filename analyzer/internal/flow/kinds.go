package flow

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// maxKindDepth bounds how many builders deep BuiltInObject follows an
// interface value.
const maxKindDepth = 4

// BuiltInObject reports whether an object held in an interface (a
// client.Object) is of a built-in kind on every path: a value of a type of
// a Kubernetes API group, or what a builder returns that answers one on
// every path (BuildAutoscaler returning a v1 or a v2
// HorizontalPodAutoscaler as a client.Object), whether the builder is of
// this package or of another (its fact).
func (p *Package) BuiltInObject(v ssa.Value) bool {
	return p.builtInObject(v, map[ssa.Value]bool{}, 0)
}

func (p *Package) builtInObject(v ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	if v == nil || seen[v] || depth > maxKindDepth {
		return false
	}
	seen[v] = true
	if model.IsBuiltInType(ssax.ConcreteType(v)) {
		return true
	}
	switch x := strip(v).(type) {
	case *ssa.Phi:
		some := false
		for _, e := range x.Edges {
			if isNil(e) {
				continue
			}
			if !p.builtInObject(e, seen, depth) {
				return false
			}
			some = true
		}
		return some
	case *ssa.Call:
		return p.returnsBuiltIn(x.Common(), 0, depth)
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok {
			return p.returnsBuiltIn(c.Common(), x.Index, depth)
		}
	}
	return false
}

// returnsBuiltIn reports whether result i of a call is an object of a
// built-in kind on every path of its callee.
func (p *Package) returnsBuiltIn(c *ssa.CallCommon, i, depth int) bool {
	fn := c.StaticCallee()
	if fn == nil {
		return false
	}
	if p.local(fn) {
		return p.builtInResult(fn, i, depth+1)
	}
	if obj := calleeObject(c); obj != nil && p.facts != nil {
		if ff := p.facts.FuncFact(obj); ff != nil {
			for _, r := range ff.BuiltIn {
				if r == i {
					return true
				}
			}
		}
	}
	return false
}

// builtInResult reports whether fn, a function of the package, returns in
// its interface result i an object of a built-in kind (or nil) on every
// path, and a built-in object on one at least.
func (p *Package) builtInResult(fn *ssa.Function, i, depth int) bool {
	res := fn.Signature.Results()
	if i >= res.Len() || !types.IsInterface(res.At(i).Type()) || !isObjectType(res.At(i).Type()) {
		return false
	}
	some := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || i >= len(ret.Results) {
			continue
		}
		r := ret.Results[i]
		if isNil(r) {
			continue
		}
		if !p.builtInObject(r, map[ssa.Value]bool{}, depth) {
			return false
		}
		some = true
	}
	return some
}

// builtInResults lists the interface results of fn that hold objects of
// built-in kinds on every path: for its fact.
func (p *Package) builtInResults(fn *ssa.Function) []int {
	var out []int
	for i := 0; i < fn.Signature.Results().Len(); i++ {
		if p.builtInResult(fn, i, 0) {
			out = append(out, i)
		}
	}
	return out
}
