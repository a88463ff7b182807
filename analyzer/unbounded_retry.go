package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkUnboundedRetry reports writes inside hand-written conflict retries
// that have no attempt bound, no deadline or no backoff, and inside wait
// polls without a timeout.
func checkUnboundedRetry(ck *checker, w *writes.Write) []finding {
	if !w.Op.IsWrite() {
		return nil
	}
	r := w.Retry()
	if r == nil || (r.Bounded && r.Backoff) || ck.flow.BoundedByContext(r) || w.Condition().Verdict == writes.Unconditional {
		return nil // a write that cannot conflict is not retried on conflict
	}
	if w.Op == model.OpPatch && w.Condition().Verdict != writes.Conditional {
		// A patch conflicts only when it carries a precondition; one whose
		// body the analysis cannot read most likely carries none.
		return nil
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
	return []finding{{pos: pos, end: end,
		msg: call + " is retried on conflict by " + what + ", so " + risk + "; " +
			"use retry.RetryOnConflict(retry.DefaultRetry, ...), which bounds the attempts and backs off",
		related: []analysis.RelatedInformation{related(r.Pos(), "the retry")}}}
}
