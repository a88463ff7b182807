package missingretry

import (
	"context"
	"fmt"

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

// PushReconciler sets one condition at a time through helpers that write
// the status and return the error, which it drops, and then writes the
// status itself and returns that error: after a conflict of a helper's
// write the Widget still carries the version that conflicted, so the last
// write fails with 409 too, and that error requeues.
type PushReconciler struct {
	client.Client
}

func (r *PushReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.setPhase(ctx, widget, "Pushing")
	r.setPhase(ctx, widget, "Pushed")
	if err := r.Status().Update(ctx, widget); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *PushReconciler) setPhase(ctx context.Context, widget *widgetsv1.Widget, phase string) error {
	widget.Status.Phase = phase
	return r.Status().Update(ctx, widget)
}

// The control: the last write is a merge patch, which carries no
// resourceVersion and so does not fail after a conflict of the first.
func (r *PushReconciler) reconcilePatched(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := widget.DeepCopy()
	r.setPhase(ctx, widget, "Pushing") // want `^missing-retry: setPhase of widget is a read-modify-write whose 409 Conflict reaches no retry`
	widget.Labels = map[string]string{"example.com/pushed": "true"}
	if err := r.Patch(ctx, widget, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

var _ = []any{(*PushReconciler).reconcilePatched}

// A helper that writes the Widget only where its annotation is out of
// date: on the other path nothing fails after a conflict of setPhase, so
// the dropped error is lost there.
func (r *PushReconciler) reconcileAnnotated(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.setPhase(ctx, widget, "Pushing") // want `^missing-retry: setPhase of widget is a read-modify-write whose 409 Conflict reaches no retry`
	if err := r.annotate(ctx, widget); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *PushReconciler) annotate(ctx context.Context, widget *widgetsv1.Widget) error {
	if widget.Annotations["example.com/phase"] == widget.Status.Phase {
		return nil
	}
	widget.Annotations["example.com/phase"] = widget.Status.Phase
	return r.Update(ctx, widget)
}

// A helper that writes the Widget on every path, and returns the error:
// after a conflict of setPhase it fails too, and the reconcile requeues.
func (r *PushReconciler) reconcileSaved(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.setPhase(ctx, widget, "Pushing")
	if err := r.save(ctx, widget); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *PushReconciler) save(ctx context.Context, widget *widgetsv1.Widget) error {
	widget.Annotations["example.com/saved"] = "true"
	if err := r.Update(ctx, widget); err != nil {
		return fmt.Errorf("cannot save the widget: %w", err)
	}
	return nil
}

var _ = []any{(*PushReconciler).reconcileAnnotated, (*PushReconciler).reconcileSaved}
