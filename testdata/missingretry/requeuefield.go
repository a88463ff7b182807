package missingretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// A reconciler whose requeue result is configured where it is built
// (Requeue: ctrl.Result{RequeueAfter: 10 * time.Second}, in main) and
// returned from a field: a logged failure on a path that returns it is
// written again by the next pass.
type RegistryReconciler struct {
	client.Client
	Requeue ctrl.Result
	Default ctrl.Result
}

func (r *RegistryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["phase"] = "upgrading"
	if err := r.Update(ctx, &cm); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the upgrade")
	}
	return r.Requeue, nil
}

// The control: a field whose name does not ask for another attempt.
func (r *RegistryReconciler) reconcileDefault(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["phase"] = "upgrading"
	if err := r.Update(ctx, &cm); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		logf.FromContext(ctx).Error(err, "cannot mark the upgrade")
	}
	return r.Default, nil
}

var _ = []any{(*RegistryReconciler).reconcileDefault}
