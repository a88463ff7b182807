package analyzer

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkUnconditionalUpdate reports Updates of objects that carry no
// resourceVersion from a read: built from scratch, or cleared. A helper of
// the package that updates its parameter, which every call in the package
// gives an object built without one, is reported once, at its write.
func checkUnconditionalUpdate(ck *checker, w *writes.Write) []finding {
	if !unconditionalUpdate(w) {
		return nil
	}
	if w.Via != nil && w.Via.Pkg() == ck.pass.Pkg {
		if inner, calls := ck.helperOfBuiltObjects(w); inner != nil {
			if calls == nil {
				return nil // reported with the first call
			}
			return unconditionalInHelper(ck, inner, calls)
		}
	}
	cond := w.Condition()
	obj := ck.objText(w)
	call := ck.callName(w.Call) + " writes "
	if w.Via != nil {
		call = w.Via.Name() + " updates "
	}
	rel := evidence(cond, obj)
	if w.Via != nil {
		rel = append(rel, related(ck.helperWritePos(w), "%s writes its argument with %s here", w.Via.Name(), w.ViaWrite.Op))
	}
	pos, end := ck.callPos(w.Call)
	return []finding{{pos: pos, end: end, related: rel,
		msg: call + obj + ", which " + whyUnconditional(cond) + ", " + updateEffect(w) + "; " +
			"Get the current object and modify it, or copy the resourceVersion you read into " + nameOrBuilt(obj)}}
}

// unconditionalUpdate reports whether a write is an Update of an object
// without a resourceVersion. A create-or-replace of a built-in kind (the
// function also creates the object it updates, and reads none) replaces
// an object the controller claims whole, by design: it is not reported. A
// custom resource's is: the API server rejects it. A helper that updates
// the object only when it carries a resourceVersion (and otherwise creates
// it and writes what it reads back) sends no PUT of a built object. Nor
// does a PUT of a Scale to the scale subresource (UpdateScale, or
// SubResource("scale").Update with the Scale as its body): it sets the
// replica count alone, a blind write of one value.
func unconditionalUpdate(w *writes.Write) bool {
	if w.Op != model.OpUpdate || w.HelperReadsFirst() || w.Via != nil && w.ViaWrite.IfRV || w.Condition().Verdict != writes.Unconditional {
		return false
	}
	if w.Via == nil && w.Obj != nil && model.IsScale(w.Obj.Type()) {
		return false
	}
	return !w.Replaces || writeFamily(w) != builtIn
}

func whyUnconditional(cond writes.Condition) string {
	switch cond.Reason {
	case writes.Cleared:
		return "had its resourceVersion cleared"
	case writes.Decoded:
		return "is decoded from a manifest without a resourceVersion"
	case writes.BuiltByHelper:
		return "is built by " + cond.Via.Name() + " without a resourceVersion"
	}
	return "is built without a resourceVersion"
}

// evidence is the related information of the places that decide a
// condition: where the object is built, decoded or cleared.
func evidence(cond writes.Condition, obj string) []analysis.RelatedInformation {
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
	return rel
}

func updateEffect(w *writes.Write) string {
	switch writeFamily(w) {
	case customResource:
		return "so the API server rejects it (a custom resource needs metadata.resourceVersion on update)"
	case unknownKind:
		return "so the PUT silently overwrites concurrent changes if it is a built-in kind, and is rejected if it is a custom resource"
	}
	return "so the PUT silently overwrites concurrent changes"
}

// nameOrBuilt names an object for the fix: by its variable or field, or,
// for an expression (a literal, a call), as the object built here.
func nameOrBuilt(obj string) string {
	if obj == "" || obj == "the object" || strings.ContainsAny(obj, "(){}[]&*…\"") || strings.HasSuffix(obj, "...") {
		return "the object built here"
	}
	return obj
}

// helperOfBuiltObjects decides, for an unconditional Update through a
// helper of the package, whether to report it once at the helper's write:
// when every call of the helper in the package (with the same write) is an
// unconditional Update, and that write is a write of the package. It
// returns that write, and the calls for the first of them (nil for the
// others); a nil write when the calls are reported each.
func (ck *checker) helperOfBuiltObjects(w *writes.Write) (inner *writes.Write, calls []*writes.Write) {
	at := ck.posOf(w.ViaWrite.At)
	if !at.IsValid() {
		return nil, nil
	}
	for _, x := range ck.writes().All {
		switch {
		case x.Via == w.Via && x.ViaWrite == w.ViaWrite:
			if !unconditionalUpdate(x) {
				return nil, nil // a call that passes a read object: each call is judged
			}
			calls = append(calls, x)
		case x.Client != nil && flow.Pos(x.Call) == at:
			inner = x
		}
	}
	if inner == nil {
		return nil, nil
	}
	if calls[0] != w {
		return inner, nil
	}
	return inner, calls
}

// unconditionalInHelper reports the write of a helper that every call in
// the package gives an object built without a resourceVersion, once, with
// the calls as related information.
func unconditionalInHelper(ck *checker, inner *writes.Write, calls []*writes.Write) []finding {
	helper := calls[0].Via.Name()
	var rel []analysis.RelatedInformation
	for _, c := range calls {
		pos, _ := ck.callPos(c.Call)
		rel = append(rel, related(pos, "%s called here with %s, which %s", helper, ck.objText(c), whyUnconditional(c.Condition())))
	}
	n := "the one call"
	if len(calls) > 1 {
		n = fmt.Sprintf("each of the %d calls", len(calls))
	}
	obj := ck.objText(inner)
	pos, end := ck.callPos(inner.Call)
	return []finding{{pos: pos, end: end, related: rel,
		msg: ck.callName(inner.Call) + " (in " + helper + ") writes " + obj + ", which " + n + " of " + helper +
			" in the package passes built without a resourceVersion, " + updateEffect(calls[0]) + "; " +
			"Get the current object in " + helper + " and modify it, or have its callers pass an object read from the API server"}}
}

type family uint8

const (
	builtIn        family = iota // a k8s.io/api type: the server allows an unconditional update
	customResource               // a type of the program: a custom resource, which requires a resourceVersion
	unknownKind                  // Unstructured or an interface: either
)

// objectFamily tells built-in kinds from custom resources by the Go type of
// the object written.
// writeFamily is the family of the object a write writes: by its type, or,
// for an object held in an interface, by what built it (a builder of a
// built-in kind returning a client.Object).
func writeFamily(w *writes.Write) family {
	f := objectFamily(w.Obj)
	if f == unknownKind && w.BuiltInObject() {
		return builtIn
	}
	return f
}

func objectFamily(v ssa.Value) family {
	t := ssax.ConcreteType(v)
	if model.IsBuiltInType(t) {
		return builtIn
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return unknownKind
	}
	if model.PkgPath(n.Obj().Pkg()) == model.Unstructured || types.IsInterface(n) {
		return unknownKind
	}
	return customResource
}
