package analyzer

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// checkUnconditionalUpdate reports Updates of objects that carry no
// resourceVersion from a read: built from scratch, or cleared.
func checkUnconditionalUpdate(ck *checker) {
	for _, w := range ck.writeSites() {
		if w.Op != model.OpUpdate || w.Obj == nil || w.ReadsFirst || (w.Via != nil && w.ViaWrite.ReadsFirst) {
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
		effect := "so the PUT silently overwrites concurrent changes"
		switch objectFamily(w.Obj) {
		case customResource:
			effect = "so the API server rejects it (a custom resource needs metadata.resourceVersion on update)"
		case unknownKind:
			effect = "so the PUT silently overwrites concurrent changes if it is a built-in kind, and is rejected if it is a custom resource"
		}
		pos, end := ck.callPos(w.Call)
		ck.report("unconditional-update", pos, end,
			call+" writes "+obj+", which "+why+", "+effect+"; "+
				"Get the current object and modify it, or copy the resourceVersion you read into "+obj,
			rel)
	}
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
	t := concreteType(v)
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

// concreteType returns the type of a value before it was converted to an
// interface.
func concreteType(v ssa.Value) types.Type {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		default:
			return v.Type()
		}
	}
}
