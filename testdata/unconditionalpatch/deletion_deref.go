package unconditionalpatch

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// A controller whose predicate lets only pods being deleted through reads
// the deletion timestamp without testing it: the dereference would panic
// if it were not set, so the code after it runs only while the pod is
// being deleted, and a finalizer it removes cannot come back.

const gcDelayFinalizer = "example.com/gc-delay"

type podGCDelay struct {
	client client.Client
	delay  time.Duration
}

func (r *podGCDelay) Reconcile(ctx context.Context, pod *corev1.Pod) (reconcile.Result, error) { // want Reconcile:"reads into #2; writes #2 with patch returning its error; changes lists of #2"
	releaseAt := pod.DeletionTimestamp.Add(r.delay)
	now := time.Now()
	if pod.Status.Phase != corev1.PodSucceeded || now.After(releaseAt) {
		podCopy := pod.DeepCopy()
		controllerutil.RemoveFinalizer(pod, gcDelayFinalizer)
		return reconcile.Result{}, r.client.Patch(ctx, pod, client.MergeFrom(podCopy))
	}
	return reconcile.Result{RequeueAfter: releaseAt.Sub(now)}, nil
}

func (r *podGCDelay) SetupWithManager(mgr ctrl.Manager) error {
	deleting := predicate.NewPredicateFuncs(func(o client.Object) bool {
		return controllerutil.ContainsFinalizer(o, gcDelayFinalizer) && o.GetDeletionTimestamp() != nil
	})
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Pod{}, builder.WithPredicates(deleting)).
		Complete(reconcile.AsReconciler(mgr.GetClient(), r))
}

// podGCRelease, the positive control, reads the timestamp only in the
// branch that waits; the pods it releases early need not be being deleted.
type podGCRelease struct {
	client client.Client
	delay  time.Duration
}

func (r *podGCRelease) Reconcile(ctx context.Context, pod *corev1.Pod) (reconcile.Result, error) { // want Reconcile:"reads into #2; writes #2 with patch returning its error; changes lists of #2"
	if pod.Annotations["example.com/release"] == "" {
		releaseAt := pod.DeletionTimestamp.Add(r.delay)
		return reconcile.Result{RequeueAfter: time.Until(releaseAt)}, nil
	}
	podCopy := pod.DeepCopy()
	controllerutil.RemoveFinalizer(pod, gcDelayFinalizer)
	return reconcile.Result{}, r.client.Patch(ctx, pod, client.MergeFrom(podCopy)) // want "^unconditional-patch: Patch of pod .*finalizers list"
}
