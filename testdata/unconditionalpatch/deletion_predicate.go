package unconditionalpatch

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// The test of the deletion timestamp is a predicate of the package: the
// finalizer is removed only while the Widget is being deleted, and a stale
// list that brought back another finalizer would be refused.

const storageFinalizer = "widgets.example.com/storage"

func isTerminating(w *widgetsv1.Widget) bool {
	return w != nil && w.DeletionTimestamp != nil
}

func isLive(w *widgetsv1.Widget) bool {
	return w.GetDeletionTimestamp().IsZero()
}

type storageFinalizers struct {
	client client.Client
}

func (r *storageFinalizers) handle(ctx context.Context, w *widgetsv1.Widget) error {
	prePatch := client.MergeFrom(w.DeepCopy())
	if isTerminating(w) {
		controllerutil.RemoveFinalizer(w, storageFinalizer)
		return r.client.Patch(ctx, w, prePatch)
	}
	return nil
}

func (r *storageFinalizers) handleNegated(ctx context.Context, w *widgetsv1.Widget) error {
	prePatch := client.MergeFrom(w.DeepCopy())
	if isLive(w) {
		return nil
	}
	controllerutil.RemoveFinalizer(w, storageFinalizer)
	return r.client.Patch(ctx, w, prePatch)
}

// The controls: a predicate that is also true for a Widget that is not
// being deleted, and the negated predicate's other branch.
func isDone(w *widgetsv1.Widget) bool {
	if w.Annotations["widgets.example.com/done"] == "true" {
		return true
	}
	return w.DeletionTimestamp != nil
}

func (r *storageFinalizers) handleDone(ctx context.Context, w *widgetsv1.Widget) error {
	prePatch := client.MergeFrom(w.DeepCopy())
	if isDone(w) {
		controllerutil.RemoveFinalizer(w, storageFinalizer)
		return r.client.Patch(ctx, w, prePatch) // want `^unconditional-patch: `
	}
	return nil
}

func (r *storageFinalizers) handleLive(ctx context.Context, w *widgetsv1.Widget) error {
	prePatch := client.MergeFrom(w.DeepCopy())
	if isLive(w) {
		controllerutil.RemoveFinalizer(w, storageFinalizer)
		return r.client.Patch(ctx, w, prePatch) // want `^unconditional-patch: `
	}
	return nil
}

func (r *storageFinalizers) reconcile(ctx context.Context, key client.ObjectKey) error {
	var w widgetsv1.Widget
	if err := r.client.Get(ctx, key, &w); err != nil {
		return err
	}
	for _, h := range []func(context.Context, *widgetsv1.Widget) error{r.handle, r.handleNegated, r.handleDone, r.handleLive, r.handleFull} {
		if err := h(ctx, &w); err != nil {
			return err
		}
	}
	return nil
}

var _ = (*storageFinalizers).reconcile

func removeStringInSlice(s string, list []string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func (r *storageFinalizers) handleFull(ctx context.Context, w *widgetsv1.Widget) error {
	prePatch := client.MergeFrom(w.DeepCopy())
	if isTerminating(w) {
		var other widgetsv1.Widget
		err := r.client.Get(ctx, client.ObjectKey{Namespace: w.Namespace, Name: w.Name + "-storage"}, &other)
		if err == nil {
			return nil
		}
		w.SetFinalizers(removeStringInSlice(storageFinalizer, w.GetFinalizers()))
		if patchErr := r.client.Patch(ctx, w, prePatch); patchErr != nil {
			return patchErr
		}
	} else if w != nil {
		if !controllerutil.ContainsFinalizer(w, storageFinalizer) {
			w.SetFinalizers(append(w.GetFinalizers(), storageFinalizer))
		}
		if err := r.client.Patch(ctx, w, prePatch); err != nil { // want `^unconditional-patch: `
			return err
		}
	}
	return nil
}
