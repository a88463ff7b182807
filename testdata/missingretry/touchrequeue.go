package missingretry

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// TouchReconciler stamps the time of its last pass on a ConfigMap and
// comes back every two seconds, as knob controllers that trigger their
// dependents do. A conflict is logged and the reconcile goes on to the same
// requeue as success: the next pass, two seconds later, reads and stamps
// again.
type TouchReconciler struct {
	client.Client
}

func (r *TouchReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/touched"] = metav1.Now().String()
	if err := r.Update(ctx, &cm); err != nil {
		if apierrors.IsConflict(err) {
			logf.FromContext(ctx).Info("conflict, next pass stamps again")
		} else {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{RequeueAfter: 2 * time.Second}, nil
}

// TouchOnceReconciler is the control: the same conflict, then a result
// that asks for nothing. The stamp is lost.
type TouchOnceReconciler struct {
	client.Client
}

func (r *TouchOnceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/touched"] = metav1.Now().String()
	if err := r.Update(ctx, &cm); err != nil { // want "^missing-retry: .*cm.*conflict is caught"
		if apierrors.IsConflict(err) {
			logf.FromContext(ctx).Info("conflict, stamp dropped")
		} else {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}
