package analyzer

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkUnconditionalUpdate reports Updates of objects that carry no
// resourceVersion from a read: built from scratch, or cleared.
func checkUnconditionalUpdate(ck *checker, w *writes.Write) []finding {
	if w.Op != model.OpUpdate || w.HelperReadsFirst() {
		return nil
	}
	cond := w.Condition()
	if cond.Verdict != writes.Unconditional {
		return nil
	}
	obj := ck.objText(w)
	call := ck.callName(w.Call)
	why := "is built without a resourceVersion"
	switch cond.Reason {
	case writes.Cleared:
		why = "had its resourceVersion cleared"
	case writes.Decoded:
		why = "is decoded from a manifest without a resourceVersion"
	case writes.BuiltByHelper:
		why = "is built by " + cond.Via.Name() + " without a resourceVersion"
	}
	var rel []analysis.RelatedInformation
	for _, e := range cond.Evidence {
		switch e.Reason {
		case writes.Cleared:
			rel = append(rel, related(e.Pos, "resourceVersion of %s cleared here", obj))
		case writes.Decoded:
			rel = append(rel, related(e.Pos, "%s decoded here", obj))
		default:
			rel = append(rel, related(e.Pos, "%s built here", obj))
		}
	}
	if w.Via != nil {
		rel = append(rel, related(w.Via.Pos(), "%s writes its argument with %s", w.Via.Name(), w.ViaWrite.Op))
		call = w.Via.Name() + " (an Update)"
	}
	effect := "so the PUT silently overwrites concurrent changes"
	switch objectFamily(w.Obj) {
	case customResource:
		effect = "so the API server rejects it (a custom resource needs metadata.resourceVersion on update)"
	case unknownKind:
		effect = "so the PUT silently overwrites concurrent changes if it is a built-in kind, and is rejected if it is a custom resource"
	}
	pos, end := ck.callPos(w.Call)
	return []finding{{pos: pos, end: end, related: rel,
		msg: call + " writes " + obj + ", which " + why + ", " + effect + "; " +
			"Get the current object and modify it, or copy the resourceVersion you read into " + obj}}
}

type family uint8

const (
	builtIn        family = iota // a k8s.io/api type: the server allows an unconditional update
	customResource               // a type of the program: a custom resource, which requires a resourceVersion
	unknownKind                  // Unstructured or an interface: either
)

// objectFamily tells built-in kinds from custom resources by the Go type of
// the object written.
func objectFamily(v ssa.Value) family {
	t := ssax.ConcreteType(v)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return unknownKind
	}
	path := n.Obj().Pkg().Path()
	switch {
	case path == model.Unstructured:
		return unknownKind
	case model.IsAPIGroup(path):
		return builtIn
	}
	if _, ok := n.Underlying().(*types.Interface); ok {
		return unknownKind
	}
	return customResource
}
