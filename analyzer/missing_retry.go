package analyzer

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

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
	if w.Client == nil && w.Via == nil && !w.ReadsFirst {
		return nil // a call of a func literal (go func(cr T) { ... }(cr)): its write is judged inside it
	}
	lost := w.Via != nil && w.ViaWrite.ErrLost && !w.ViaWrite.InRetry
	if w.Via != nil && (w.ViaWrite.InRetry || !w.ViaWrite.ErrReturned) && !lost {
		return nil // the helper retries, or handles (or drops, and is reported for it) the error itself
	}
	if w.Retry() != nil {
		return nil
	}
	if w.Condition().Verdict == writes.Unconditional {
		return nil // an unconditional write gets no 409: unconditional-update's case
	}
	fate, check := w.ErrorFate()
	if lost {
		// The helper of another package loses the error: what this
		// caller does after the call decides (LostToCallers).
		fate, check = ck.flow.LostFate(w.WriteSite)
	}
	if fate == flow.Handled {
		return nil
	}
	if w.RewatchedStatus() != nil {
		return nil // the conflicting write's event reconciles the object again
	}
	if ck.rereadEachPeriod(w) {
		return nil // the next period reads the object again and writes it again
	}
	if justCreated(w) {
		return nil // the second half of a creation: the object's own writers win
	}
	if ck.flow.LostToCallers(w.Call, w.Obj) {
		return nil // its callers, in other packages, are judged through its fact
	}
	obj := ck.objText(w)
	call := ck.callName(w.Call)
	var how string
	var rel []analysis.RelatedInformation
	switch {
	case lost:
		how = w.Via.Name() + " does not return its error"
	case fate == flow.Dropped:
		how = "its error is dropped"
	case fate == flow.Logged:
		how = "its error is only logged"
	case fate == flow.Swallowed:
		how = "a conflict is caught and ignored"
		if fn := check.Common().StaticCallee(); fn != nil && fn.Name() != "IsConflict" && model.ErrorUseOf(check.Common()) != model.ErrTest {
			rel = append(rel, related(check.Pos(), "%s answers nil for a conflict", fn.Name()))
		} else {
			rel = append(rel, related(check.Pos(), "the conflict is swallowed here"))
		}
	}
	if lost {
		rel = append(rel, related(ck.helperWritePos(w), "%s writes its argument with %s here and does not return its error", w.Via.Name(), w.ViaWrite.Op))
	} else if w.Via != nil {
		rel = append(rel, related(ck.helperWritePos(w), "%s writes its argument with %s here and returns its error", w.Via.Name(), w.ViaWrite.Op))
	}
	// The read the change was made to, where the analysis sees it.
	seen := map[token.Pos]bool{}
	for _, o := range w.Origins() {
		if (o.Kind == flow.Read || o.Kind == flow.CacheRead) && o.Pos().IsValid() && !seen[o.Pos()] {
			seen[o.Pos()] = true
			if ck.writes().IsWrite(o.Site) {
				// A write fills its object with what the server stored.
				rel = append(rel, related(o.Pos(), "%s is written here and refilled from the response", obj))
				continue
			}
			rel = append(rel, related(o.Pos(), "%s is read here", obj))
		}
	}
	// A helper's write of its parameter: the read is the caller's, and so
	// is the path that loses the error.
	if w.Via == nil && fate != flow.Swallowed {
		if c := ck.flow.CallerGoesOn(w.Call); c != nil {
			rel = append(rel, related(c.Pos(), "%s calls %s here, and goes on without an error or a requeue", funcText(c.Parent()), funcText(w.Call.Parent())))
			aliases := map[ssa.Value]bool{}
			for _, a := range ck.flow.Aliases(w.Obj) {
				aliases[a] = true
			}
			for i, prm := range w.Call.Parent().Params {
				if i >= len(c.Common().Args) || !aliases[prm] {
					continue
				}
				for _, o := range ck.flow.Object(c.Common().Args[i], c) {
					if (o.Kind == flow.Read || o.Kind == flow.CacheRead) && o.Pos().IsValid() && !seen[o.Pos()] {
						seen[o.Pos()] = true
						rel = append(rel, related(o.Pos(), "%s is read here", ck.paramText(c, i)))
					}
				}
			}
		}
	}
	fix := missingRetryFix(w, fate)
	if lost {
		fix = "have " + w.Via.Name() + " return its error and hand it on (the work queue requeues), or requeue after the call"
	}
	pos, end := ck.callPos(w.Call)
	return []finding{{pos: pos, end: end, related: rel,
		msg: call + " of " + obj + " is a read-modify-write whose 409 Conflict reaches no retry (" + how +
			"), so the change is lost whenever another writer got there first; " + fix}}
}

// missingRetryFix is the advice that fits the function the write is in:
// one without an error result cannot return the error, and a swallowed
// conflict is returned rather than mapped to success.
func missingRetryFix(w *writes.Write, fate flow.Fate) string {
	const wrap = "wrap the read-modify-write in retry.RetryOnConflict"
	if fn := w.Call.Parent(); fn != nil && !returnsAnError(fn.Signature) {
		if answersHTTP(fn) {
			return "answer the request with an error status (http.Error), or " + wrap
		}
		return "requeue on conflict, or " + wrap
	}
	if fate == flow.Swallowed {
		return "return the conflict as an error (the work queue requeues) instead of what success returns, or " + wrap
	}
	return "return its error (the work queue requeues), requeue on conflict, or " + wrap
}

// answersHTTP reports whether a function is an HTTP handler: it has a
// net/http ResponseWriter parameter.
func answersHTTP(fn *ssa.Function) bool {
	for _, p := range fn.Params {
		if model.IsHTTPResponseWriter(p.Type()) {
			return true
		}
	}
	return false
}

// returnsAnError reports whether a function has an error result.
func returnsAnError(sig *types.Signature) bool {
	res := sig.Results()
	for i := 0; i < res.Len(); i++ {
		if model.IsError(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// rereadEachPeriod reports whether a write is in a function that a periodic
// runner (wait.Until, wait.JitterUntilWithContext, ...) runs every period,
// given as a func literal, a method value or a function, or called from
// such a function, and writes an object read in that function; or is in a
// loop written by hand that waits for a timer on every round
// (flow.PeriodicLoop), and writes an object read in that loop; or writes
// an object it is given (an element of a map or slice it is given) in a
// helper that every call runs in such a round, with an argument read or
// worked out in that round (flow.PeriodicArgs); or is a CreateOrUpdate
// (or a helper wrapping one) run in such a round, which reads the object
// itself at each call: each period reads the object again and redoes the
// change, so a lost write is retried one period later.
func (ck *checker) rereadEachPeriod(w *writes.Write) bool {
	if (w.ReadsFirst || w.HelperReadsFirst()) && ck.flow.PeriodicRound(w.Call) != nil {
		return true // CreateOrUpdate reads the object again at each call: each round does
	}
	origins := w.Origins()
	if len(origins) == 0 {
		return false
	}
	if in := ck.flow.PeriodicRound(w.Call); in != nil && readIn(origins, in) {
		return true // read and written in each round of a periodic runner
	}
	// A helper's parameter: every call of the helper runs each period,
	// with an object read, or worked out, in that round (a map of the
	// out-of-date items of a List).
	for _, o := range origins {
		prm := flow.ParamOf(o)
		if prm == nil || prm.Parent() != w.Call.Parent() {
			return false
		}
		args, ok := ck.flow.PeriodicArgs(prm)
		if !ok {
			return false
		}
		for _, a := range args {
			if !a.Fresh {
				return false
			}
		}
	}
	return true
}

// readIn reports whether every origin is a read (from the API server or a
// cache) at a site in.
func readIn(origins []flow.Origin, in func(ssa.Instruction) bool) bool {
	for _, o := range origins {
		if (o.Kind != flow.Read && o.Kind != flow.CacheRead) || o.Site == nil || !in(o.Site) {
			return false
		}
	}
	return true
}

// justCreated reports whether the object written is, on every path, the
// one a Create of the same function answered with: the status a Create
// cannot set, written right after it. Nobody read that object to change
// it, and a 409 means that the object's own controller has begun to write
// it, whose state stands.
func justCreated(w *writes.Write) bool {
	origins := w.Origins()
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		c, ok := o.Site.(ssa.CallInstruction)
		if o.Kind != flow.Read || !ok || o.Via != nil || c.Parent() != w.Call.Parent() {
			return false
		}
		if mc, ok := model.Classify(c.Common()); !ok || mc.Op != model.OpCreate {
			return false
		}
	}
	return true
}
