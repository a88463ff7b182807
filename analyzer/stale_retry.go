package analyzer

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// checkStaleRetry reports Updates inside a conflict retry of objects read
// only outside the retried function.
func checkStaleRetry(ck *checker) {
	for _, w := range ck.writeSites() {
		if w.Op != model.OpUpdate || w.Obj == nil || w.ReadsFirst || (w.Via != nil && (w.ViaWrite.InRetry || w.ViaWrite.ReadsFirst)) {
			continue
		}
		r := ck.flow.RetryOfWrite(w)
		if r == nil {
			continue
		}
		ck.current = w.Call.Parent()
		origins := ck.flow.Object(w.Obj, w.Call)
		if len(origins) == 0 || flow.AllNoResourceVersion(origins) {
			continue
		}
		var reads []flow.Origin
		fresh := false
		for _, o := range origins {
			if insideRetry(r, o) {
				fresh = true
				break
			}
			if o.Kind == flow.Unknown && o.Param == nil && o.Site == nil {
				fresh = true // cannot tell where it comes from
				break
			}
			if o.Kind == flow.Read || o.Kind == flow.CacheRead {
				reads = append(reads, o)
			}
		}
		if fresh || ck.flow.RefilledWhere(w.Obj, func(i ssa.Instruction) bool { return r.Inside(i) && !ck.isWrite(i) }) {
			continue // read again inside the retry, if only for the next attempt
		}
		if r.Fn != nil && r.Fn.Signature.Results().Len() == 1 {
			// func() error: nil ends the retry (a wait condition's
			// (false, nil) would go on).
			if fate, _ := ck.flow.ErrorFate(w.Err, w.Call); fate == flow.Swallowed {
				continue // a conflict ends the retry as a success: nothing is resent
			}
		}
		obj := ck.objText(w)
		call := ck.callName(w.Call)
		rel := []analysis.RelatedInformation{related(r.Pos(), "the retry: %s", r.Name)}
		for _, o := range reads {
			rel = append(rel, related(o.Pos(), "%s is read here, outside the retry", obj))
		}
		if w.Via != nil {
			rel = append(rel, related(w.Via.Pos(), "%s writes its argument with %s", w.Via.Name(), w.ViaWrite.Op))
		}
		where := "the retried function"
		if r.Loop != nil {
			where = "the retry loop"
		}
		pos, end := ck.callPos(w.Call)
		ck.report("stale-retry", pos, end,
			call+" inside "+r.Name+" writes "+obj+", which is read only outside "+where+
				", so every attempt resends the same stale resourceVersion and the retry cannot succeed; "+
				"Get "+obj+" inside "+where+" and apply the change to it",
			rel)
	}
}

// insideRetry reports whether an origin is produced inside the retried
// attempt: a read in the retried function, a parameter of it, or a value
// obtained there in a way the model cannot follow.
func insideRetry(r *flow.Retry, o flow.Origin) bool {
	if o.Param != nil {
		return r.Fn != nil && r.Inside(o.Param.Parent().Blocks[0].Instrs[0])
	}
	return o.Site != nil && r.Inside(o.Site)
}
