package factsuser

import (
	"context"

	"k8s.io/apimachinery/pkg/labels"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/facts"
)

// The For watch filtered by another package's predicate of labels: a
// status-only change passes it, so the conflicting writer's event runs
// Reconcile again, which writes the status afresh. Not reported.
type TenantWidgetReconciler struct {
	client.Client
	Tenants []labels.Set
}

func (r *TenantWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(facts.AnyLabelsSetPredicate(r.Tenants))).
		Complete(r)
}

func (r *TenantWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget)
	return ctrl.Result{}, nil
}

// The same with a predicate of state: reported.
type PendingWidgetReconciler struct {
	client.Client
}

func (r *PendingWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(facts.PendingPredicate())).
		Complete(r)
}

func (r *PendingWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}
