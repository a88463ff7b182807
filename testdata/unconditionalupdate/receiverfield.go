package unconditionalupdate

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// WidgetFieldReconciler keeps the Widget it reconciles in a field of
// itself: each reconcile allocates it, reads into it and updates it, each
// time through the field.
type WidgetFieldReconciler struct {
	client.Client
	Instance *widgetsv1.Widget
}

func (r *WidgetFieldReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.Instance = &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, r.Instance); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.Instance.DeletionTimestamp.IsZero() {
		// The object read through the field: it carries the resourceVersion.
		controllerutil.AddFinalizer(r.Instance, "widgets.example.com/cleanup")
		return ctrl.Result{}, r.Update(ctx, r.Instance)
	}
	controllerutil.RemoveFinalizer(r.Instance, "widgets.example.com/cleanup")
	return ctrl.Result{}, r.Update(ctx, r.Instance)
}

// The control: the field is read into, then given a new object, and that
// one is updated without a resourceVersion.
func (r *WidgetFieldReconciler) badRefill(ctx context.Context, req ctrl.Request) error {
	r.Instance = &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, r.Instance); err != nil {
		return err
	}
	spec := r.Instance.Spec
	r.Instance = &widgetsv1.Widget{}
	r.Instance.Name, r.Instance.Namespace = req.Name, req.Namespace
	r.Instance.Spec = spec
	return r.Update(ctx, r.Instance) // want "^unconditional-update: "
}

// The functions above are run by the controller's workers.
var _ = []any{(*WidgetFieldReconciler).badRefill}
