package missingretry

import (
	"context"
	"errors"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// A controller set up as kubebuilder's first scaffold did: Add builds the
// reconciler and hands it, as a reconcile.Reconciler, to add, which builds
// the controller For the Widget with no event filter. A status write whose
// conflict is only logged is written afresh by the reconcile the
// conflicting write's event runs.
type ScaffoldWidgetReconciler struct {
	client.Client
}

func AddScaffold(mgr manager.Manager) error {
	r, err := newScaffoldReconciler(mgr)
	if err != nil {
		return err
	}
	return addScaffold(mgr, r)
}

func newScaffoldReconciler(mgr manager.Manager) (reconcile.Reconciler, error) {
	if mgr.GetClient() == nil {
		return nil, errors.New("no client")
	}
	return &ScaffoldWidgetReconciler{Client: mgr.GetClient()}, nil
}

func addScaffold(mgr manager.Manager, r reconcile.Reconciler) error {
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

func (r *ScaffoldWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Phase = "Ready"
	if err := r.Status().Update(ctx, w); err != nil {
		logf.FromContext(ctx).Error(err, "cannot update the Widget status")
	}
	return ctrl.Result{}, nil
}

// The control: the same scaffold with an event filter that drops
// status-only changes, so a conflicting status write runs no reconcile.
type FilteredScaffoldReconciler struct {
	client.Client
}

func AddFilteredScaffold(mgr manager.Manager) error {
	return addFilteredScaffold(mgr, newFilteredScaffoldReconciler(mgr))
}

func newFilteredScaffoldReconciler(mgr manager.Manager) reconcile.Reconciler {
	return &FilteredScaffoldReconciler{Client: mgr.GetClient()}
}

func addFilteredScaffold(mgr manager.Manager, r reconcile.Reconciler) error {
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).
		WithEventFilter(predicate.GenerationChangedPredicate{}).
		Complete(r)
}

func (r *FilteredScaffoldReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Phase = "Ready"
	if err := r.Status().Update(ctx, w); err != nil { // want `^missing-retry: Status\(\)\.Update of w is a read-modify-write whose 409 Conflict reaches no retry`
		logf.FromContext(ctx).Error(err, "cannot update the Widget status")
	}
	return ctrl.Result{}, nil
}
