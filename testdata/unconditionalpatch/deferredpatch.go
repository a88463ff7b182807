package unconditionalpatch

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// The status is patched in a deferred closure from a snapshot taken before
// it; the conditions change after the defer statement, and the closure
// sends them when Reconcile returns: the merge patch replaces the whole
// conditions list.
type WidgetDeferredStatusReconciler struct {
	client.Client
}

func (r *WidgetDeferredStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	original := widget.DeepCopy()
	defer func() {
		if perr := r.Status().Patch(ctx, widget, client.MergeFrom(original)); perr != nil && err == nil { // want `^unconditional-patch: Status\(\)\.Patch of widget sends a merge patch from MergeFrom without a precondition, and the status\.conditions list of widget changed since the snapshot`
			err = perr
		}
	}()
	meta.RemoveStatusCondition(&widget.Status.Conditions, "Degraded")
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: metav1.ConditionTrue, Reason: "Synced"})
	return ctrl.Result{}, nil
}

// The same closure with the optimistic lock: a concurrent change of the
// list fails with 409 and the reconcile is retried.
type WidgetDeferredLockedReconciler struct {
	client.Client
}

func (r *WidgetDeferredLockedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	original := widget.DeepCopy()
	defer func() {
		if perr := r.Status().Patch(ctx, widget, client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{})); perr != nil && err == nil {
			err = perr
		}
	}()
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: metav1.ConditionTrue, Reason: "Synced"})
	return ctrl.Result{}, nil
}

// The conditions are set before the snapshot; after it only a value
// computed from another field changes, and that is all the patch sends.
type WidgetDeferredObservedReconciler struct {
	client.Client
}

func (r *WidgetDeferredObservedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Reconciling", Status: metav1.ConditionTrue, Reason: "Started"})
	original := widget.DeepCopy()
	defer func() {
		if perr := r.Status().Patch(ctx, widget, client.MergeFrom(original)); perr != nil && err == nil {
			err = perr
		}
	}()
	widget.Status.ObservedGeneration = widget.Generation
	return ctrl.Result{}, nil
}
