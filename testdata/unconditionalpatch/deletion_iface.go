package unconditionalpatch

import (
	"context"
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// A reconciler that reaches its helpers through an interface of the
// package's own (so that tests can replace them): the helper's method is
// called only through the interface. Its name is unexported, so every call
// of it is in the package, and the calls through the interface count as its
// calls: a finalizer removed in a helper that is only called in the deletion
// branch is removed from an object being deleted.

type widgetHelperAPI interface {
	finalize(ctx context.Context, w *widgetsv1.Widget) error
	adopt(ctx context.Context, w *widgetsv1.Widget) error
}

type widgetHelper struct {
	client client.Client
}

var _ widgetHelperAPI = &widgetHelper{}

type HelperIfaceCleanup struct {
	client.Client
	helper widgetHelperAPI
}

func NewHelperIfaceCleanup(c client.Client) *HelperIfaceCleanup {
	return &HelperIfaceCleanup{Client: c, helper: &widgetHelper{client: c}}
}

func (r *HelperIfaceCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.GetDeletionTimestamp() != nil {
		if err := r.helper.finalize(ctx, &widget); err != nil {
			return ctrl.Result{}, fmt.Errorf("finalizing %s: %w", widget.Name, err)
		}
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.helper.adopt(ctx, &widget)
}

// finalize is called only in the deletion branch: not reported.
func (h *widgetHelper) finalize(ctx context.Context, w *widgetsv1.Widget) error {
	base := w.DeepCopy()
	controllerutil.RemoveFinalizer(w, widgetFinalizer)
	return h.client.Patch(ctx, w, client.MergeFrom(base))
}

// adopt, the positive control, is called when the object is not being
// deleted: a finalizer removed there may be one another controller has just
// added.
func (h *widgetHelper) adopt(ctx context.Context, w *widgetsv1.Widget) error {
	base := w.DeepCopy()
	controllerutil.RemoveFinalizer(w, widgetFinalizer)
	return h.client.Patch(ctx, w, client.MergeFrom(base)) // want "^unconditional-patch: Patch of w .*finalizers list"
}
