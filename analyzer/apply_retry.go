package analyzer

import (
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkApplyRetry reports Server-Side Apply calls inside a conflict retry:
// their 409 is a field-ownership conflict that a retry does not clear.
func checkApplyRetry(ck *checker, w *writes.Write) []finding {
	if w.Client == nil || !w.IsApply() {
		return nil
	}
	r := w.Retry()
	if r == nil || forced(w) {
		return nil
	}
	what := ck.writeText(w)
	pos, end := ck.callPos(w.Call)
	return []finding{{pos: pos, end: end,
		msg: what + " is a Server-Side Apply inside " + r.Name + ": its 409 Conflict is a field-ownership conflict, not a stale resourceVersion, " +
			"so re-reading and retrying does not clear it; resolve the ownership (stop setting fields another manager owns) or apply with force",
		related: []analysis.RelatedInformation{related(r.Pos(), "the retry: %s", r.Name)}}}
}

// forced reports whether a Server-Side Apply takes ownership by force:
// ApplyOptions{Force: true}, PatchOptions{Force: ptr.To(true)},
// client.ForceOwnership.
func forced(w *writes.Write) bool {
	c := w.Call.Common()
	for _, arg := range model.Args(c) {
		if hasForce(arg, 0) {
			return true
		}
	}
	return false
}

// maxForceDepth caps the values hasForce follows from an argument of an
// apply to its Force option (an interface, a slice, a pointer, a literal).
const maxForceDepth = 6

func hasForce(v ssa.Value, depth int) bool {
	if depth > maxForceDepth || v == nil {
		return false
	}
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return hasForce(x.X, depth+1)
	case *ssa.Slice:
		return hasForce(x.X, depth+1)
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok && model.IsForceOwnership(g) {
			return true
		}
		if x.Op == token.MUL {
			return hasForce(x.X, depth+1)
		}
	case *ssa.Alloc:
		for _, r := range ssax.Referrers(x) {
			switch a := r.(type) {
			case *ssa.FieldAddr:
				if flow.FieldName(a) != "Force" {
					continue
				}
				for _, rr := range ssax.Referrers(a) {
					if st, ok := rr.(*ssa.Store); ok && st.Addr == a && !isFalse(st.Val) {
						return true
					}
				}
			case *ssa.IndexAddr:
				for _, rr := range ssax.Referrers(a) {
					if st, ok := rr.(*ssa.Store); ok && st.Addr == a && hasForce(st.Val, depth+1) {
						return true
					}
				}
			case *ssa.Store:
				if a.Addr == x && hasForce(a.Val, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

func isFalse(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && (c.Value == nil || c.Value.String() == "false")
}
