package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// checkUnconditionalUpdate reports Updates of objects that carry no
// resourceVersion from a read: built from scratch, or cleared.
func checkUnconditionalUpdate(ck *checker) {
	for _, w := range ck.writeSites() {
		if w.Op != model.OpUpdate || w.Obj == nil || w.ReadsFirst {
			continue
		}
		ck.current = w.Call.Parent()
		origins := ck.flow.Object(w.Obj, w.Call)
		if !flow.AllNoResourceVersion(origins) {
			continue
		}
		obj := ck.objText(w)
		call := ck.callName(w.Call)
		why := "is built without a resourceVersion"
		var rel []analysis.RelatedInformation
		for _, o := range origins {
			switch {
			case o.Kind == flow.Cleared:
				why = "had its resourceVersion cleared"
				rel = append(rel, related(o.Pos(), "resourceVersion of %s cleared here", obj))
			case o.Decoded:
				why = "is decoded from a manifest without a resourceVersion"
				rel = append(rel, related(o.Pos(), "%s decoded here", obj))
			case o.Via != nil:
				why = "is built by " + o.Via.Name() + " without a resourceVersion"
				rel = append(rel, related(o.Pos(), "%s built here", obj))
			case o.Pos().IsValid():
				rel = append(rel, related(o.Pos(), "%s built here", obj))
			}
		}
		if w.Via != nil {
			rel = append(rel, related(w.Via.Pos(), "%s writes its argument with %s", w.Via.Name(), w.ViaWrite.Op))
			call = w.Via.Name() + " (an Update)"
		}
		pos, end := ck.callPos(w.Call)
		ck.report("unconditional-update", pos, end,
			call+" writes "+obj+", which "+why+", so the PUT silently overwrites concurrent changes; "+
				"Get the current object and modify it, or copy the resourceVersion you read into "+obj,
			rel)
	}
}
