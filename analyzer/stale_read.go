package analyzer

import (
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkStaleRead reports reads served from a cache that feed a write: reads
// with ResourceVersion "0", and lister or store reads inside a conflict retry.
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
		case o.Kind == flow.CacheRead && r != nil && r.Inside(read):
			pos, end := ck.callPos(read)
			what := "lister/informer " + ck.callName(read) + " inside " + r.Name + " reads the cache"
			if o.Via != nil {
				what = ck.callName(read) + " inside " + r.Name + " reads a lister or informer cache"
			}
			out = append(out, finding{pos: pos, end: end,
				msg: what + ", so every attempt sees the same stale object and " + call +
					" keeps failing with 409 Conflict; re-read with a client Get inside the retry",
				related: []analysis.RelatedInformation{related(wpos, "the write: %s", call), related(r.Pos(), "the retry: %s", r.Name)}})
		}
	}
	return out
}
