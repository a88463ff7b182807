package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// checkMissingRetry reports read-modify-write Updates whose 409 Conflict is
// dropped, only logged or swallowed outside any retry.
func checkMissingRetry(ck *checker) {
	for _, w := range ck.writeSites() {
		if w.Op != model.OpUpdate {
			continue
		}
		if w.Via != nil && (w.ViaWrite.InRetry || !w.ViaWrite.ErrReturned) {
			continue // the helper retries, or handles (or drops, and is reported for it) the error itself
		}
		if ck.flow.RetryOfWrite(w) != nil {
			continue
		}
		ck.current = w.Call.Parent()
		if w.Obj != nil && !w.ReadsFirst && flow.AllNoResourceVersion(ck.flow.Object(w.Obj, w.Call)) {
			continue // an unconditional write gets no 409: unconditional-update's case
		}
		fate, check := ck.flow.ErrorFate(w.Err, w.Call)
		if fate == flow.Handled {
			continue
		}
		obj := ck.objText(w)
		call := ck.callName(w.Call)
		var how string
		var rel []analysis.RelatedInformation
		switch fate {
		case flow.Dropped:
			how = "its error is dropped"
		case flow.Logged:
			how = "its error is only logged"
		case flow.Swallowed:
			how = "a conflict is caught and ignored"
			if fn := check.Common().StaticCallee(); fn != nil && fn.Name() != "IsConflict" && model.ErrorUseOf(check.Common()) != model.ErrTest {
				rel = append(rel, related(check.Pos(), "%s answers nil for a conflict", fn.Name()))
			} else {
				rel = append(rel, related(check.Pos(), "the conflict is swallowed here"))
			}
		}
		if w.Via != nil {
			rel = append(rel, related(w.Via.Pos(), "%s writes its argument with %s and returns its error", w.Via.Name(), w.ViaWrite.Op))
		}
		pos, end := ck.callPos(w.Call)
		ck.report("missing-retry", pos, end,
			call+" of "+obj+" is a read-modify-write whose 409 Conflict reaches no retry ("+how+
				"), so the change is lost whenever another writer got there first; "+
				"return the error (the work queue requeues), requeue on conflict, or wrap the read-modify-write in retry.RetryOnConflict",
			rel)
	}
}
