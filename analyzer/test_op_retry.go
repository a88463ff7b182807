package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
)

// checkTestOpRetry reports JSON patches guarded by a test op that are
// retried only on conflict: a failed test is a 422, not a 409.
func checkTestOpRetry(ck *checker) {
	for _, w := range ck.writeSites() {
		if w.Op != model.OpPatch {
			continue
		}
		info := ck.patchOf(w)
		if info == nil || info.Type != patch.TypeJSON || !info.HasTest {
			continue
		}
		ck.current = w.Call.Parent()
		r := ck.flow.RetryOfWrite(w)
		if r == nil || !r.ConflictOnly || (r.Fn != nil && ck.flow.MentionsInvalid(r.Fn)) {
			continue // the retried function handles the 422 of a failed test itself
		}
		call := ck.writeText(w)
		pos, end := ck.callPos(w.Call)
		ck.report("test-op-retry", pos, end,
			call+" sends a JSON patch guarded by a test op inside "+r.Name+", which retries only on 409 Conflict; "+
				"a failed test op is answered with 422 (apierrors.IsInvalid), so the retry never runs and the first failure is final; "+
				"retry on apierrors.IsInvalid as well, re-reading the object each time",
			[]analysis.RelatedInformation{related(r.Pos(), "the retry: %s", r.Name)})
	}
}
