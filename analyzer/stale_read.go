package analyzer

import (
	"slices"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkStaleRead reports reads served from a cache that feed a write: reads
// with ResourceVersion "0", and lister or store reads inside a conflict retry.
// cacheCatchUp is how long a retry must wait between attempts for a lister
// or informer re-read inside it not to be reported: an informer delivers a
// change within well under a second of the write, and a retry that sleeps
// this long (a poll every few seconds, a helper that sleeps half a second)
// reads it on its next attempt. retry.DefaultRetry and DefaultBackoff wait
// 10 ms first: the next attempt reads the same cached object.
const cacheCatchUp = 100 * time.Millisecond

func checkStaleRead(ck *checker, w *writes.Write) []finding {
	if w.Op != model.OpUpdate && w.Op != model.OpPatch {
		return nil
	}
	origins := slices.Clip(w.Origins())
	if w.Client != nil && w.Client.Op == model.OpPatch && w.Client.Data >= 0 {
		c := w.Call.Common()
		origins = append(origins, ck.flow.Feeding(model.Arg(c, w.Client.Data))...)
		origins = append(origins, ck.flow.Feeding(model.Arg(c, w.Client.Name))...)
	}
	call := ck.writeText(w)
	wpos, _ := ck.callPos(w.Call)
	r := w.Retry()
	var out []finding
	for _, o := range origins {
		read, ok := o.Site.(ssa.CallInstruction)
		if !ok || (o.Via != nil && !(o.Kind == flow.CacheRead && !o.RV0)) {
			// A helper that reads with ResourceVersion "0" is reported
			// in the helper; one that reads a cache, where it is called
			// inside a retry.
			continue
		}
		switch {
		case o.RV0 && r != nil && r.Inside(read) && ck.flow.RV0FirstAttempt(read):
			// The first attempt reads the cache, the retry after a
			// conflict reads from etcd.
		case o.RV0:
			pos, end := ck.callPos(read)
			var fixes []analysis.SuggestedFix
			if fix := ck.dropRV0Fix(read); fix != nil {
				fixes = append(fixes, *fix)
			}
			out = append(out, finding{pos: pos, end: end, fixes: fixes,
				msg: ck.callName(read) + ` with ResourceVersion "0" may be served from the watch cache, arbitrarily stale, and what it reads feeds ` + call +
					`; drop ResourceVersion "0" to read the latest version before writing`,
				related: []analysis.RelatedInformation{related(wpos, "the write: %s", call)}})
		case o.Kind == flow.CacheRead && r != nil && r.Inside(read) && ck.flow.CacheFirstAttempt(read):
			// The first attempt reads the cache; one after a failed
			// write sets the flag that makes the next read the API
			// server's.
		case o.Kind == flow.CacheRead && r != nil && r.Inside(read) && r.MinWait >= cacheCatchUp:
			// The retry waits long enough between attempts for the
			// informer to deliver the change that made the write fail.
		case o.Kind == flow.CacheRead && r != nil && r.Inside(read) && w.Condition().Verdict == writes.Unconditional:
			// A patch without a precondition never fails with 409: no
			// attempt after the first reads the cache again.
		case o.Kind == flow.CacheRead && r != nil && r.Inside(read):
			pos, end := ck.callPos(read)
			what := "lister/informer " + ck.callName(read) + " inside " + r.Name + " reads the cache"
			if o.Via != nil {
				what = ck.callName(read) + " inside " + r.Name + " reads a lister or informer cache"
			}
			out = append(out, finding{pos: pos, end: end,
				msg: what + ", which lags behind the write that caused the conflict, so the attempts can see the same stale object and " + call +
					" keep failing with 409 Conflict until the retry gives up; re-read with a client Get inside the retry",
				related: []analysis.RelatedInformation{related(wpos, "the write: %s", call), related(r.Pos(), "the retry: %s", r.Name)}})
		}
	}
	return out
}

// checkStaleReadFed reports reads with ResourceVersion "0" whose object
// reaches a write only as the argument of a helper that computes the patch
// it sends from it (a taint or label patch helper that diffs two versions
// of the object). A helper call that is a write of its own is left to
// checkStaleRead.
func checkStaleReadFed(ck *checker, f flow.FedArg) []finding {
	if f.Feed.Op != model.OpPatch || ck.writes().IsWrite(f.Call) {
		return nil
	}
	helper := ck.callName(f.Call)
	cpos, _ := ck.callPos(f.Call)
	rel := []analysis.RelatedInformation{related(cpos, "the write: %s", helper)}
	if at := ck.posOf(f.Feed.At); at.IsValid() {
		rel = append(rel, related(at, "%s sends the patch here", helper))
	}
	r := ck.flow.RetryOf(f.Call)
	var out []finding
	for _, o := range ck.flow.Object(f.Arg, f.Call) {
		read, ok := o.Site.(ssa.CallInstruction)
		if !ok || !o.RV0 || o.Via != nil {
			continue // a helper's read with ResourceVersion "0" is reported in the helper
		}
		if r != nil && r.Inside(read) && ck.flow.RV0FirstAttempt(read) {
			continue // the first attempt reads the cache, the next ones etcd
		}
		pos, end := ck.callPos(read)
		var fixes []analysis.SuggestedFix
		if fix := ck.dropRV0Fix(read); fix != nil {
			fixes = append(fixes, *fix)
		}
		out = append(out, finding{pos: pos, end: end, fixes: fixes, related: rel,
			msg: ck.callName(read) + ` with ResourceVersion "0" may be served from the watch cache, arbitrarily stale, and what it reads feeds the patch ` + helper +
				` sends; drop ResourceVersion "0" to read the latest version before writing`})
	}
	return out
}
