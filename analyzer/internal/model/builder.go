package model

import (
	"go/token"

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

// FiltersNothing reports whether an option of For leaves its events as
// they are: builder.OnlyMetadata projects the object, it drops no event;
// builder.WithPredicates of predicates that pass every change
// (PassesEveryChange) drops none that a write makes.
func FiltersNothing(opt ssa.Value) bool {
	if mi, ok := opt.(*ssa.MakeInterface); ok {
		opt = mi.X
	}
	if c, ok := opt.(*ssa.Call); ok && CalleeName(&c.Call) == CRBuilder+".WithPredicates" {
		els := ssax.VariadicElements(Arg(&c.Call, 0))
		for _, e := range els {
			if !PassesEveryChange(e.Value) {
				return false
			}
		}
		return len(els) > 0
	}
	ld, ok := opt.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	g, ok := ld.X.(*ssa.Global)
	return ok && g.Pkg != nil && PkgPath(g.Pkg.Pkg) == CRBuilder && g.Name() == "OnlyMetadata"
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
