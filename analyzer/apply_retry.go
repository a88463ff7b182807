package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkApplyRetry reports Server-Side Apply calls inside a conflict retry:
// their 409 is a field-ownership conflict that a retry does not clear.
func checkApplyRetry(ck *checker, w *writes.Write) []finding {
	if w.Client == nil || !w.IsApply() {
		return nil
	}
	r := w.Retry()
	if r == nil || ck.flow.Forced(w.Call.Common()) {
		return nil
	}
	what := ck.writeText(w)
	pos, end := ck.callPos(w.Call)
	return []finding{{pos: pos, end: end,
		msg: what + " is a Server-Side Apply inside " + r.Name + ": its 409 Conflict is a field-ownership conflict, not a stale resourceVersion, " +
			"so re-reading and retrying does not clear it; resolve the ownership (stop setting fields another manager owns) or apply with force",
		related: []analysis.RelatedInformation{related(r.Pos(), "the retry: %s", r.Name)}}}
}
