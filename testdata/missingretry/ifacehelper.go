package missingretry

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// A reconciler that reaches its status helpers through an interface of the
// package's own: the helpers' calls through the interface are their calls,
// so a best-effort status write in a helper every caller of which then
// fails is retried by the work queue, as it is for a helper called directly.

type podStatusAPI interface {
	markFailed(ctx context.Context, pod *corev1.Pod, msg string)
	markHealthy(ctx context.Context, pod *corev1.Pod)
}

type podStatus struct {
	kube client.Client
}

type PodProbeReconciler struct {
	kube   client.Client
	status podStatusAPI
}

func NewPodProbeReconciler(c client.Client) *PodProbeReconciler {
	return &PodProbeReconciler{kube: c, status: &podStatus{kube: c}}
}

func (r *PodProbeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pod := &corev1.Pod{}
	if err := r.kube.Get(ctx, req.NamespacedName, pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !podReady(pod) {
		r.status.markFailed(ctx, pod, "not ready")
		return ctrl.Result{}, errors.New("pod not ready")
	}
	r.status.markHealthy(ctx, pod)
	return ctrl.Result{}, nil
}

// markFailed is called only where the reconcile then fails: not reported.
func (s *podStatus) markFailed(ctx context.Context, pod *corev1.Pod, msg string) {
	pod.Status.Message = msg
	if err := s.kube.Status().Update(ctx, pod); err != nil {
		logf.FromContext(ctx).Error(err, "cannot update status")
	}
}

// markHealthy, the positive control, is called where the reconcile
// succeeds: its conflict is lost.
func (s *podStatus) markHealthy(ctx context.Context, pod *corev1.Pod) {
	pod.Status.Message = "healthy"
	if err := s.kube.Status().Update(ctx, pod); err != nil { // want "^missing-retry: .*pod .*only logged"
		logf.FromContext(ctx).Error(err, "cannot update status")
	}
}
