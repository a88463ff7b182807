package facts

import (
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// AnyLabelsSetPredicate admits the objects whose labels match one of the
// sets, the way a controller shared by several tenants filters its
// watches: it chooses objects, not changes.
func AnyLabelsSetPredicate(sets []labels.Set) predicate.Predicate { // want AnyLabelsSetPredicate:"returns a predicate of objects"
	return TypedAnyLabelsSetPredicate[client.Object](sets)
}

func TypedAnyLabelsSetPredicate[T client.Object](sets []labels.Set) predicate.TypedPredicate[T] { // want TypedAnyLabelsSetPredicate:"returns a predicate of objects"
	preds := make([]predicate.TypedPredicate[T], len(sets))
	for i := range sets {
		preds[i] = predicate.NewTypedPredicateFuncs(func(obj T) bool {
			return labels.SelectorFromValidatedSet(sets[i]).Matches(labels.Set(obj.GetLabels()))
		})
	}
	return predicate.Or(preds...)
}

// PendingPredicate admits the objects whose generation is not observed
// yet: a test of state, which chooses changes. No fact.
func PendingPredicate() predicate.Predicate {
	return predicate.NewPredicateFuncs(func(obj client.Object) bool {
		return obj.GetGeneration() > 1
	})
}
