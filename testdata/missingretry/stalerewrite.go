package missingretry

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// DeprovisionReconciler records the teardown in the status, logging a
// failure, and then removes its finalizer with an Update whose error it
// returns. The Widget is not read again in between: after a conflict of the
// status write it still carries the version that conflicted, so the
// finalizer's Update fails with 409 too, and that error requeues.
type DeprovisionReconciler struct {
	client.Client
}

func (r *DeprovisionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	widget.Status.Phase = "Deprovisioned"
	if err := r.Status().Update(ctx, widget); err != nil {
		logf.FromContext(ctx).Error(err, "cannot record the teardown")
	}
	if err := r.removeFinalizer(ctx, widget); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// removeFinalizer drops the finalizer and writes the Widget.
func (r *DeprovisionReconciler) removeFinalizer(ctx context.Context, widget *widgetsv1.Widget) error {
	controllerutil.RemoveFinalizer(widget, widgetFinalizer)
	return r.Update(ctx, widget)
}

// RereadDeprovisionReconciler reads the Widget again before removing the
// finalizer: the Update then carries a fresh version and may succeed, so
// the status write's conflict is lost.
type RereadDeprovisionReconciler struct {
	client.Client
}

func (r *RereadDeprovisionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	widget.Status.Phase = "Deprovisioned"
	if err := r.Status().Update(ctx, widget); err != nil { // want `^missing-retry: Status\(\)\.Update of widget is a read-modify-write whose 409 Conflict reaches no retry`
		logf.FromContext(ctx).Error(err, "cannot record the teardown")
	}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	controllerutil.RemoveFinalizer(widget, widgetFinalizer)
	if err := r.Update(ctx, widget); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
