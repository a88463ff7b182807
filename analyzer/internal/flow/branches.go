package flow

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// outcome is a branch known to have been taken: the condition of an If
// and the value it had.
type outcome struct {
	cond ssa.Value
	val  bool
}

// knownOutcomes returns the branches taken on every path to b: for each If
// ending a block that dominates b, the outcome whose successor (entered
// from that If alone) dominates b.
func knownOutcomes(b *ssa.BasicBlock) []outcome {
	var out []outcome
	for iff := range dominatingIfs(b) {
		s := iff.Block().Succs
		if s[0] == s[1] {
			continue
		}
		switch {
		case branchDominates(s[0], b):
			out = append(out, outcome{iff.Cond, true})
		case branchDominates(s[1], b):
			out = append(out, outcome{iff.Cond, false})
		}
	}
	return out
}

// edgeOutcomes returns the branches taken on every path along edge i of a
// phi: those taken on every path to the edge's predecessor, and the If that
// ends the predecessor when the edge is one of its two ways out.
func edgeOutcomes(phi *ssa.Phi, i int) []outcome {
	pred := phi.Block().Preds[i]
	out := knownOutcomes(pred)
	if n := len(pred.Instrs); n > 0 {
		if iff, ok := pred.Instrs[n-1].(*ssa.If); ok && pred.Succs[0] != pred.Succs[1] {
			out = append(out, outcome{iff.Cond, pred.Succs[0] == phi.Block()})
		}
	}
	return out
}

// infeasibleEdges returns which edges of a phi cannot have been taken when
// at runs: a branch on the way along the edge and a branch on every way to
// at test the same condition with opposite results, as in
//
//	if cur == nil { obj = built() } else { obj = cur.DeepCopy() }
//	...
//	if cur == nil { Create(obj) } else { Update(obj) }
//
// where the Update only ever sees the copy of cur. Only conditions whose
// value cannot change between the two branches count (sameCondition), and
// only a phi whose block lies on every path to at, so that the edge taken
// is the one of the latest pass.
func infeasibleEdges(phi *ssa.Phi, at ssa.Instruction) []bool {
	if at.Parent() != phi.Parent() || !phi.Block().Dominates(at.Block()) || len(phi.Edges) < 2 {
		return nil
	}
	atOut := knownOutcomes(at.Block())
	if len(atOut) == 0 {
		return nil
	}
	var dead []bool
	for i := range phi.Edges {
		for _, e := range edgeOutcomes(phi, i) {
			if contradicts(e, atOut, phi.Block()) {
				if dead == nil {
					dead = make([]bool, len(phi.Edges))
				}
				dead[i] = true
				break
			}
		}
	}
	return dead
}

// exclusiveBranches reports whether a and b, instructions of one function,
// lie on branches of the same condition with opposite results, so that b
// never runs after a on the same pass, as in
//
//	if notFound { obj = T{...} }
//	...
//	if notFound { Create(&obj) } else { Update(&obj) }
//
// where the Update never sees the object built for the Create. A condition
// that is one SSA value counts only if no path from a leads back to where
// it is computed: in a loop, the next round may compute it anew.
func exclusiveBranches(a, b ssa.Instruction) bool {
	if a.Parent() != b.Parent() {
		return false
	}
	bOut := knownOutcomes(b.Block())
	if len(bOut) == 0 {
		return false
	}
	for _, o := range knownOutcomes(a.Block()) {
		for _, x := range bOut {
			if o.cond == x.cond {
				def, ok := o.cond.(ssa.Instruction)
				if o.val != x.val && (!ok || !reachable(a.Block(), def.Block(), nil)) {
					return true
				}
				continue
			}
			if same, neg := sameCondition(o.cond, x.cond, nil); same && (o.val != x.val) != neg {
				return true
			}
		}
	}
	return false
}

// contradicts reports whether an outcome is contradicted by one of outs.
func contradicts(o outcome, outs []outcome, join *ssa.BasicBlock) bool {
	for _, a := range outs {
		if same, neg := sameCondition(o.cond, a.cond, join); same && (o.val != a.val) != neg {
			return true
		}
	}
	return false
}

// sameCondition reports whether two conditions always have the same value
// (neg false) or always opposite values (neg true) wherever a branch of the
// latest pass through join tests them: the same SSA value defined in a
// block that strictly dominates join (a test in a loop header is evaluated
// again after the header's phis chose their edge), or comparisons (==, !=) of the same operands that do not change
// while the function runs (parameters, free variables, constants).
func sameCondition(a, b ssa.Value, join *ssa.BasicBlock) (same, neg bool) {
	if a == b {
		// Defined strictly before join: outside any loop join heads, so
		// not defined again between the edge's branch, join and at.
		instr, ok := a.(ssa.Instruction)
		return !ok || instr.Block() != join && instr.Block().Dominates(join), false
	}
	x, ok1 := a.(*ssa.BinOp)
	y, ok2 := b.(*ssa.BinOp)
	if !ok1 || !ok2 || !isEquality(x.Op) || !isEquality(y.Op) || !invariant(x.X) || !invariant(x.Y) {
		return false, false
	}
	if !(sameOperand(x.X, y.X) && sameOperand(x.Y, y.Y) || sameOperand(x.X, y.Y) && sameOperand(x.Y, y.X)) {
		return false, false
	}
	return true, x.Op != y.Op
}

// sameOperand reports whether two operands are the same value: the same
// SSA value, or equal constants of one type (each use of nil or of a
// literal is a constant of its own).
func sameOperand(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	x, ok1 := a.(*ssa.Const)
	y, ok2 := b.(*ssa.Const)
	if !ok1 || !ok2 || !types.Identical(x.Type(), y.Type()) {
		return false
	}
	if x.Value == nil || y.Value == nil {
		return x.Value == nil && y.Value == nil
	}
	return constant.Compare(x.Value, token.EQL, y.Value)
}

func isEquality(op token.Token) bool { return op == token.EQL || op == token.NEQ }

// invariant reports whether a value is the same throughout a call of its
// function.
func invariant(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	case *ssa.Const:
		return true
	case *ssa.MakeInterface:
		return invariant(x.X)
	}
	return false
}
