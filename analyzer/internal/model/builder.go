package model

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// The controller-runtime controller builder: what a controller of the
// package reconciles, and whether its watch of that type filters events.
//
//	ctrl.NewControllerManagedBy(mgr).For(&v1.Foo{}).Owns(&appsv1.Deployment{}).Complete(r)
//
// Every event of a watched object enqueues its key, and the work queue
// runs the key again after a reconcile that saw an older version: a write
// of the reconciled object that lost a 409 is followed by a reconcile that
// reads the object anew, unless a predicate drops the conflicting write's
// event (builder.WithPredicates, WithEventFilter).

// BuilderOp is what a call of the controller builder does.
type BuilderOp uint8

const (
	BuilderNone     BuilderOp = iota
	BuilderNew                // ControllerManagedBy, TypedControllerManagedBy: a new builder
	BuilderFor                // For(obj, opts...): the type reconciled
	BuilderFilter             // WithEventFilter: a predicate on every watch
	BuilderChain              // Owns, Watches, Named, WithOptions, ...: the same builder, For's events unfiltered
	BuilderComplete           // Complete(r), Build(r): r reconciles
)

var builderMethods = map[string]BuilderOp{
	"For":                BuilderFor,
	"WithEventFilter":    BuilderFilter,
	"Owns":               BuilderChain,
	"Watches":            BuilderChain,
	"WatchesMetadata":    BuilderChain,
	"WatchesRawSource":   BuilderChain,
	"Named":              BuilderChain,
	"WithOptions":        BuilderChain,
	"WithLogConstructor": BuilderChain,
	"Complete":           BuilderComplete,
	"Build":              BuilderComplete,
}

var builderNews = map[string]bool{
	CRBuilder + ".ControllerManagedBy":      true,
	CRBuilder + ".TypedControllerManagedBy": true,
}

// BuilderCall says what a call does to a controller builder.
func BuilderCall(c *ssa.CallCommon) BuilderOp {
	if builderNews[CalleeName(c)] {
		return BuilderNew
	}
	name, _, recv, ok := methodOf(c)
	if !ok {
		return BuilderNone
	}
	if path, n := typeName(recv); path != CRBuilder || n != "TypedBuilder" && n != "Builder" {
		return BuilderNone
	}
	return builderMethods[name]
}

// ForOptionPredicates says what an option of For filters: builder.OnlyMetadata
// projects the object and drops no event (no predicates, ok);
// builder.WithPredicates filters by its predicates; ok is false for an
// option the model does not know.
func ForOptionPredicates(opt ssa.Value) (preds []ssa.Value, ok bool) {
	if mi, ok := opt.(*ssa.MakeInterface); ok {
		opt = mi.X
	}
	if c, ok := opt.(*ssa.Call); ok && CalleeName(&c.Call) == CRBuilder+".WithPredicates" {
		for _, e := range ssax.VariadicElements(Arg(&c.Call, 0)) {
			preds = append(preds, e.Value)
		}
		return preds, len(preds) > 0
	}
	ld, ok := opt.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, false
	}
	g, ok := ld.X.(*ssa.Global)
	return nil, ok && g.Pkg != nil && PkgPath(g.Pkg.Pkg) == CRBuilder && g.Name() == "OnlyMetadata"
}

// PassesEveryChange reports whether a predicate lets through the event of
// every write of an object: predicate.ResourceVersionChangedPredicate drops
// only resyncs, updates whose resourceVersion did not change.
func PassesEveryChange(pred ssa.Value) bool {
	if mi, ok := pred.(*ssa.MakeInterface); ok {
		pred = mi.X
	}
	return isNamed(pred.Type(), CRPredicate, "TypedResourceVersionChangedPredicate")
}

// PredicateOp is what a call of controller-runtime's predicate package
// builds.
type PredicateOp uint8

const (
	PredicateNone PredicateOp = iota
	// PredicateOfObject: NewPredicateFuncs(filter), NewTypedPredicateFuncs:
	// every event, an update's new object, goes through one filter of the
	// object (argument 0).
	PredicateOfObject
	// PredicateLabels: LabelSelectorPredicate(selector), which tests the
	// object's labels only.
	PredicateLabels
	PredicateAnd // And(ps...): every one passes
	PredicateOr  // Or(ps...): one passes
)

var predicateCalls = map[string]PredicateOp{
	CRPredicate + ".NewPredicateFuncs":      PredicateOfObject,
	CRPredicate + ".NewTypedPredicateFuncs": PredicateOfObject,
	CRPredicate + ".LabelSelectorPredicate": PredicateLabels,
	CRPredicate + ".And":                    PredicateAnd,
	CRPredicate + ".Or":                     PredicateOr,
}

// PredicateCall says what a call of the predicate package builds.
func PredicateCall(c *ssa.CallCommon) PredicateOp { return predicateCalls[CalleeName(c)] }

// IsPredicateFuncs reports whether t is predicate.Funcs (TypedFuncs), the
// struct of event funcs whose UpdateFunc, when nil, passes every update.
func IsPredicateFuncs(t types.Type) bool { return isNamed(t, CRPredicate, "TypedFuncs") }

// IsPredicate reports whether t is a predicate of controller-runtime: the
// TypedPredicate interface (Predicate), or TypedFuncs.
func IsPredicate(t types.Type) bool {
	return isNamed(t, CRPredicate, "TypedPredicate") || IsPredicateFuncs(t)
}

// ObjectOld is the field of an update event (event.TypedUpdateEvent) that
// holds the object before the update; ObjectNew the one after it.
const (
	ObjectOld = "ObjectOld"
	ObjectNew = "ObjectNew"
)

// identityGetters are the methods of metav1.Object whose answers a write
// of the object's status or spec leaves as they are: a filter that asks
// only these chooses objects, not changes.
var identityGetters = map[string]bool{
	"GetLabels": true, "GetAnnotations": true, "GetName": true, "GetNamespace": true,
	"GetOwnerReferences": true, "GetUID": true, "GetGenerateName": true,
}

// IsIdentityGetter reports whether a method of an object answers what
// names or labels it (GetLabels, GetName, ...), not its state.
func IsIdentityGetter(name string) bool { return identityGetters[name] }
