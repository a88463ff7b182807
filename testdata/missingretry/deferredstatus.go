package missingretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// A reconciler that writes the status it computed in a deferred closure at
// the end of each reconcile.
type StoreStatusReconciler struct {
	client.Client
}

// Reconcile's results are not named: when the deferred closure runs, what
// Reconcile returns is already decided, so the err the closure assigns is
// read by nothing but the closure, which only logs it. Reported.
func (r *StoreStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	logger := log.FromContext(ctx)
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var err error
	defer func() {
		ns.Status.Phase = corev1.NamespaceActive
		if err = r.Status().Update(ctx, &ns); err != nil { // want `^missing-retry: Status\(\)\.Update of ns is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
			logger.Error(err, "cannot update the status")
			return
		}
	}()
	if ns.Labels == nil {
		err = r.Update(ctx, &ns)
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// A reconciler whose results are named: the deferred closure sets the error
// Reconcile returns, so the conflict reaches the work queue. Not reported.
type NamedStatusReconciler struct {
	client.Client
}

func (r *NamedStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		ns.Status.Phase = corev1.NamespaceActive
		if err = r.Status().Update(ctx, &ns); err != nil {
			return
		}
	}()
	return ctrl.Result{}, nil
}
