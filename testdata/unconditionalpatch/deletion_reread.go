package unconditionalpatch

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// RereadCleanup's finalizer helper fetches the latest version of the
// Widget it is given, by that Widget's key, before it removes the
// finalizer: the same object, read again, still being deleted (a deletion
// timestamp is never unset). Its one call is in the deletion branch.
type RereadCleanup struct {
	client.Client
}

func (r *RereadCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !w.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.removeFinalizer(ctx, &w)
	}
	return ctrl.Result{}, r.releaseOnPause(ctx, &w)
}

func (r *RereadCleanup) removeFinalizer(ctx context.Context, w *widgetsv1.Widget) error {
	latest := &widgetsv1.Widget{}
	if err := r.Get(ctx, client.ObjectKey{Name: w.Name, Namespace: w.Namespace}, latest); err != nil {
		return err
	}
	patch := client.MergeFrom(latest.DeepCopy())
	controllerutil.RemoveFinalizer(latest, widgetFinalizer)
	return r.Patch(ctx, latest, patch)
}

// The positive control: the same re-read and removal, for a Widget that
// is not being deleted (paused): a finalizer another actor adds meanwhile
// is dropped by the merge patch.
func (r *RereadCleanup) releaseOnPause(ctx context.Context, w *widgetsv1.Widget) error {
	if !w.Spec.Paused {
		return nil
	}
	latest := &widgetsv1.Widget{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(w), latest); err != nil {
		return err
	}
	patch := client.MergeFrom(latest.DeepCopy())
	controllerutil.RemoveFinalizer(latest, widgetFinalizer)
	return r.Patch(ctx, latest, patch) // want "^unconditional-patch: Patch of latest sends a merge patch from MergeFrom without a precondition"
}
