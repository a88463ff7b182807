package unconditionalpatch

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/unconditionalpatch/patchutil"
)

// VolumeFinalizer returns early for a Widget that is not being deleted, and
// hands the rest to a helper that patches a copy without its finalizer,
// filtered by a list helper of another package: a removal while the
// object is being deleted.
type VolumeFinalizer struct {
	client.Client
}

func (r *VolumeFinalizer) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := new(widgetsv1.Widget)
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.ObjectMeta.DeletionTimestamp == nil {
		return ctrl.Result{}, r.resize(ctx, w)
	}
	return ctrl.Result{}, r.removeVolume(ctx, w)
}

func (r *VolumeFinalizer) removeVolume(ctx context.Context, w *widgetsv1.Widget) error {
	w2 := w.DeepCopy()
	w2.Finalizers = patchutil.RemoveString(w2.Finalizers, widgetFinalizer)
	patch := client.MergeFrom(w)
	if err := r.Patch(ctx, w2, patch); err != nil {
		return err
	}
	return nil
}

// The control: the same removal, from a Widget that is not being deleted.
func (r *VolumeFinalizer) resize(ctx context.Context, w *widgetsv1.Widget) error {
	w2 := w.DeepCopy()
	w2.Finalizers = patchutil.RemoveString(w2.Finalizers, widgetFinalizer)
	return r.Patch(ctx, w2, client.MergeFrom(w)) // want "^unconditional-patch: Patch of w2 .*finalizers list"
}
