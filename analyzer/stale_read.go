package analyzer

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// checkStaleRead reports reads served from a cache that feed a write: reads
// with ResourceVersion "0", and lister or store reads inside a conflict retry.
func checkStaleRead(ck *checker) {
	for _, w := range ck.writeSites() {
		if w.Op != model.OpUpdate && w.Op != model.OpPatch {
			continue
		}
		ck.current = w.Call.Parent()
		var origins []flow.Origin
		if w.Obj != nil {
			origins = ck.flow.Object(w.Obj, w.Call)
		}
		if w.Client != nil && w.Client.Op == model.OpPatch && w.Client.Data >= 0 {
			c := w.Call.Common()
			origins = append(origins, ck.flow.Feeding(model.Arg(c, w.Client.Data))...)
			origins = append(origins, ck.flow.Feeding(model.Arg(c, w.Client.Name))...)
		}
		call := ck.callName(w.Call)
		wpos, _ := ck.callPos(w.Call)
		r := ck.flow.RetryOf(w.Call)
		for _, o := range origins {
			read, ok := o.Site.(ssa.CallInstruction)
			if !ok || o.Via != nil {
				continue
			}
			switch {
			case o.RV0:
				pos, end := ck.callPos(read)
				ck.report("stale-read", pos, end,
					ck.callName(read)+` with ResourceVersion "0" may be served from the watch cache, arbitrarily stale, and what it reads feeds `+call+
						`; drop ResourceVersion "0" to read the latest version before writing`,
					[]analysis.RelatedInformation{related(wpos, "the write: %s", call)})
			case o.Kind == flow.CacheRead && r != nil && r.Inside(read):
				pos, end := ck.callPos(read)
				ck.report("stale-read", pos, end,
					"lister/informer "+ck.callName(read)+" inside "+r.Name+" reads the cache, so every attempt sees the same stale object and "+call+
						" keeps failing with 409 Conflict; re-read with a client Get inside the retry",
					[]analysis.RelatedInformation{related(wpos, "the write: %s", call), related(r.Pos(), "the retry: %s", r.Name)})
			}
		}
	}
}
