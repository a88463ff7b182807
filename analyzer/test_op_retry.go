package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkTestOpRetry reports JSON patches guarded by a test op that are
// retried only on conflict: a failed test is a 422, not a 409.
func checkTestOpRetry(ck *checker, w *writes.Write) []finding {
	if w.Op != model.OpPatch {
		return nil
	}
	info := w.Patch()
	if info == nil || info.Type != patch.TypeJSON || !info.HasTest {
		return nil
	}
	r := w.Retry()
	if r == nil || !r.ConflictOnly || (r.Fn != nil && ck.flow.MentionsInvalid(r.Fn)) {
		return nil // the retried function handles the 422 of a failed test itself
	}
	call := ck.writeText(w)
	pos, end := ck.callPos(w.Call)
	return []finding{{pos: pos, end: end,
		msg: call + " sends a JSON patch guarded by a test op inside " + r.Name + ", which retries only on 409 Conflict; " +
			"a failed test op is answered with 422 (apierrors.IsInvalid), so the retry never runs and the first failure is final; " +
			"retry on apierrors.IsInvalid as well, re-reading the object each time",
		related: []analysis.RelatedInformation{related(r.Pos(), "the retry: %s", r.Name)}}}
}
