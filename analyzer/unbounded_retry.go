package analyzer

import (
	"golang.org/x/tools/go/analysis"
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
		r := ck.flow.RetryOf(w.Call)
		if r == nil || (r.Bounded && r.Backoff) || ck.flow.BoundedByContext(r) {
			continue
		}
		var what string
		switch {
		case r.Loop != nil && !r.Bounded:
			what = "a retry loop with no attempt bound and no deadline"
		case r.Loop != nil:
			what = "a retry loop that does not wait between attempts"
		case !r.Bounded:
			what = r.Name + ", which has no timeout,"
		default:
			what = r.Name + ", which does not wait between attempts,"
		}
		call := ck.callName(w.Call)
		pos, end := ck.callPos(w.Call)
		ck.report("unbounded-retry", pos, end,
			call+" is retried on conflict by "+what+" so it can spin forever on a hot object; "+
				"use retry.RetryOnConflict(retry.DefaultRetry, ...), which bounds the attempts and backs off",
			[]analysis.RelatedInformation{related(r.Pos(), "the retry")})
	}
}
