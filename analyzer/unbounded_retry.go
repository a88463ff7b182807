package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
)

// checkUnboundedRetry reports writes inside hand-written conflict retries
// that have no attempt bound, no deadline or no backoff, and inside wait
// polls without a timeout.
func checkUnboundedRetry(ck *checker) {
	for _, w := range ck.writeSites() {
		if !w.Op.IsWrite() {
			continue
		}
		ck.current = w.Call.Parent()
		r := ck.flow.RetryOfWrite(w)
		if r == nil || (r.Bounded && r.Backoff) || ck.flow.BoundedByContext(r) || !ck.canConflict(w) {
			continue
		}
		var what, risk string
		switch {
		case r.Loop != nil && !r.Bounded:
			what, risk = "a retry loop with no attempt bound and no deadline", "it can spin forever on a hot object"
		case r.Loop != nil:
			what, risk = "a retry loop that does not wait between attempts", "it hammers the API server while the object is hot"
		case !r.Bounded:
			what, risk = r.Name+", which has no timeout", "it can spin forever on a hot object"
		default:
			what, risk = r.Name+", which does not wait between attempts", "it hammers the API server while the object is hot"
		}
		call := ck.writeText(w)
		pos, end := ck.callPos(w.Call)
		ck.report("unbounded-retry", pos, end,
			call+" is retried on conflict by "+what+", so "+risk+"; "+
				"use retry.RetryOnConflict(retry.DefaultRetry, ...), which bounds the attempts and backs off",
			[]analysis.RelatedInformation{related(r.Pos(), "the retry")})
	}
}

// canConflict reports whether a write can fail with 409 Conflict: an Update
// of an object with a resourceVersion, an apply (ownership), a patch with a
// precondition or one the analysis cannot see. A patch known to carry no
// precondition cannot conflict, so retrying it on conflict does nothing.
func (ck *checker) canConflict(w *flow.WriteSite) bool {
	switch w.Op {
	case model.OpUpdate:
		return w.Obj == nil || w.ReadsFirst || !flow.AllNoResourceVersion(ck.flow.Object(w.Obj, w.Call))
	case model.OpPatch:
		info := ck.patchOf(w)
		return info == nil || !info.Known || info.Type == patch.TypeApply || info.HasPrecondition()
	}
	return true
}
