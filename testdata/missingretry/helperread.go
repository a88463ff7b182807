package missingretry

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// A helper logs the failure of its write; one caller then fails (the work
// queue retries), the other returns success, where the conflict is lost.
// The finding names that call, and the caller's read of the object.
type SyncStampReconciler struct {
	client.Client
}

func (r *SyncStampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(cm.Data) > 10 {
		r.markSynced(ctx, &cm)
		return ctrl.Result{}, errors.New("too many keys")
	}
	r.markSynced(ctx, &cm) // the call that loses the conflict
	return ctrl.Result{}, nil
}

func (r *SyncStampReconciler) markSynced(ctx context.Context, cm *corev1.ConfigMap) {
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/synced"] = time.Now().Format(time.RFC3339)
	if err := r.Update(ctx, cm); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		logf.FromContext(ctx).Error(err, "cannot mark the ConfigMap synced")
	}
}
