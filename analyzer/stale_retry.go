package analyzer

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkStaleRetry reports Updates inside a conflict retry of objects read
// only outside the retried function. A helper that re-reads the object on
// some path (when its caller asks, after a conflict) is not one: the retry
// may send a fresh version.
func checkStaleRetry(ck *checker, w *writes.Write) []finding {
	if w.Op != model.OpUpdate || w.Obj == nil || w.ReadsFirst || w.HelperRetries() || w.HelperReadsFirst() || w.HelperRereads() {
		return nil
	}
	r := w.Retry()
	if r == nil || w.Condition().Verdict != writes.Conditional {
		return nil
	}
	fresh, reads := w.FreshInRetry()
	if fresh {
		return nil // read again inside the retry, if only for the next attempt
	}
	if len(reads) == 0 && ck.createdToo(w) {
		// Create(ctx, &cr), then on AlreadyExists Update(ctx, &cr): an
		// object made to be created carries no resourceVersion, so its
		// Update gets no 409 to retry (the caller passes a built object).
		return nil
	}
	if r.Fn != nil && r.Fn.Signature.Results().Len() == 1 {
		// func() error: nil ends the retry (a wait condition's
		// (false, nil) would go on).
		if fate, _ := w.ErrorFate(); fate == flow.Swallowed {
			return nil // a conflict ends the retry as a success: nothing is resent
		}
	}
	obj := ck.objText(w)
	call := ck.callName(w.Call)
	// The object written may be a copy of what was read
	// (datasetToUpdate := dataset.DeepCopy()): the read to move into the
	// retry is the one of dataset.
	read := ""
	for i, o := range reads {
		if n := ck.readText(o); i == 0 || n == read {
			read = n
		} else {
			read = ""
			break
		}
	}
	rel := []analysis.RelatedInformation{related(r.Pos(), "the retry: %s", r.Name)}
	for _, o := range reads {
		name := ck.readText(o)
		if name == "" {
			name = obj
		}
		if ck.writes().IsWrite(o.Site) {
			// A write fills its object with what the server stored.
			rel = append(rel, related(o.Pos(), "%s is written here and refilled from the response, outside the retry", name))
			continue
		}
		rel = append(rel, related(o.Pos(), "%s is read here, outside the retry", name))
	}
	if w.Via != nil {
		rel = append(rel, related(ck.helperWritePos(w), "%s writes its argument with %s here", w.Via.Name(), w.ViaWrite.Op))
	}
	where := "the retried function"
	if r.Loop != nil {
		where = "the retry loop"
	}
	what, get := obj, obj
	if read != "" && read != obj {
		what, get = obj+", made from "+read, read
	}
	pos, end := ck.callPos(w.Call)
	return []finding{{pos: pos, end: end, related: rel,
		msg: call + " inside " + r.Name + " writes " + what + ", which is read only outside " + where +
			", so every attempt resends the same stale resourceVersion and the retry cannot succeed; " +
			"Get " + get + " inside " + where + " and apply the change to it"}}
}

// createdToo reports whether the object a write writes is also passed to a
// Create in the write's function or a function around it.
func (ck *checker) createdToo(w *writes.Write) bool {
	aliases := map[ssa.Value]bool{}
	for _, a := range ck.flow.Aliases(w.Obj) {
		aliases[a] = true
	}
	for fn := w.Call.Parent(); fn != nil; fn = fn.Parent() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				mc, ok := model.Classify(c.Common())
				if ok && mc.Op == model.OpCreate && aliases[model.Arg(c.Common(), mc.Obj)] {
					return true
				}
			}
		}
	}
	return false
}
