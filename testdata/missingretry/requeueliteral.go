package missingretry

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// A reconciler that polls: every pass asks to be run again in a minute, so
// a failed write that is only logged is written again by the next pass.
type PodMessageReconciler struct {
	client.Client
}

func (r *PodMessageReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations["example.com/seen"] = "true"
	if err := r.Update(ctx, &pod); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the pod seen")
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

// The same write, but the pass ends without a requeue: the logged failure
// is lost.
func (r *PodMessageReconciler) reconcileOnce(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations["example.com/seen"] = "true"
	if err := r.Update(ctx, &pod); err != nil { // want `^missing-retry: Update of pod is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		logf.FromContext(ctx).Error(err, "cannot mark the pod seen")
	}
	return ctrl.Result{}, nil
}

// The polling result kept in a variable at the top, with the interval the
// reconciler is configured with, and returned by every pass: the same.
type PodPollReconciler struct {
	client.Client
	Interval time.Duration
}

func (r *PodPollReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	requeueY := ctrl.Result{RequeueAfter: r.Interval * time.Second}
	requeueN := ctrl.Result{}
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		return requeueN, client.IgnoreNotFound(err)
	}
	if pod.Annotations["example.com/seen"] == "true" {
		return requeueY, nil
	}
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations["example.com/seen"] = "true"
	if err := r.Update(ctx, &pod); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the pod seen")
	}
	return requeueY, nil
}

// The control: the variable kept is the zero result, no requeue.
func (r *PodPollReconciler) reconcileOnce(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	requeueN := ctrl.Result{}
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		return requeueN, client.IgnoreNotFound(err)
	}
	pod.Labels["example.com/seen"] = "true"
	if err := r.Update(ctx, &pod); err != nil { // want `^missing-retry: Update of pod is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		logf.FromContext(ctx).Error(err, "cannot mark the pod seen")
	}
	return requeueN, nil
}

// The methods above are run by the controller's workers.
var _ = []any{(*PodMessageReconciler).reconcileOnce, (*PodPollReconciler).reconcileOnce}
