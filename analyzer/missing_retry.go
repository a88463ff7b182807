package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkMissingRetry reports read-modify-write Updates whose 409 Conflict is
// dropped, only logged or swallowed outside any retry.
func checkMissingRetry(ck *checker, w *writes.Write) []finding {
	if w.Op != model.OpUpdate {
		return nil
	}
	if w.Via != nil && (w.ViaWrite.InRetry || !w.ViaWrite.ErrReturned) {
		return nil // the helper retries, or handles (or drops, and is reported for it) the error itself
	}
	if w.Retry() != nil {
		return nil
	}
	if w.Condition().Verdict == writes.Unconditional {
		return nil // an unconditional write gets no 409: unconditional-update's case
	}
	fate, check := w.ErrorFate()
	if fate == flow.Handled {
		return nil
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
	return []finding{{pos: pos, end: end, related: rel,
		msg: call + " of " + obj + " is a read-modify-write whose 409 Conflict reaches no retry (" + how +
			"), so the change is lost whenever another writer got there first; " +
			"return the error (the work queue requeues), requeue on conflict, or wrap the read-modify-write in retry.RetryOnConflict"}}
}
