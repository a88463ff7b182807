package unconditionalupdate

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// The status write is deferred before the Get that fills the object: a
// deferred call runs when the function returns, after the Get, so the
// PUT carries the resourceVersion read. (Its error is dropped: that is
// missing-retry's case, not this rule's.)
type deferredStatusReconciler struct {
	client.Client
}

func (r *deferredStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	// Always write the status back when the reconcile ends.
	defer r.Status().Update(ctx, widget) // want "^missing-retry: "

	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}
	widget.Status.Phase = "Seen"
	return ctrl.Result{}, nil
}

// So through a helper the defer calls.
func (r *deferredStatusReconciler) reconcileViaHelper(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	defer r.writeStatus(ctx, widget, "Done")

	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, nil
}

func (r *deferredStatusReconciler) writeStatus(ctx context.Context, widget *widgetsv1.Widget, phase string) {
	widget.Status.Phase = phase
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: "
}

// The control: the object deferred is built and never read into, so the
// deferred PUT carries no resourceVersion.
func (r *deferredStatusReconciler) reconcileBuilt(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	marker := &widgetsv1.Widget{}
	marker.Name, marker.Namespace = req.Name+"-marker", req.Namespace
	defer r.Status().Update(ctx, marker) // want "^unconditional-update: "

	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	marker.Status.Phase = widget.Status.Phase
	return ctrl.Result{}, nil
}

var _ = []any{(*deferredStatusReconciler).reconcileViaHelper, (*deferredStatusReconciler).reconcileBuilt}
