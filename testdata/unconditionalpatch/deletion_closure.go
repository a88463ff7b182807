package unconditionalpatch

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// The deletion timestamp is tested by the caller, and the finalizer is
// removed in a retried closure of the helper that handles deletion, which
// reads the object again by its key: the object is still being deleted
// (a deletion timestamp is never unset), so the removal is not reported.

// RetriedCleanup removes its finalizer in a retried closure of its
// deletion helper, and adds it in a closure of its other helper, which
// also runs for objects not being deleted: the positive control.
type RetriedCleanup struct {
	client.Client
}

func (r *RetriedCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !cm.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.reconcileDelete(ctx, cm)
	}
	return ctrl.Result{}, r.reconcileNormal(ctx, cm)
}

func (r *RetriedCleanup) reconcileDelete(ctx context.Context, cm *corev1.ConfigMap) error {
	key := client.ObjectKeyFromObject(cm)
	backoff := wait.Backoff{Steps: 3, Duration: 50 * time.Millisecond, Factor: 1.0}
	return retry.OnError(backoff, apierrors.IsInvalid, func() error {
		if err := r.Get(ctx, key, cm); err != nil {
			return client.IgnoreNotFound(err)
		}
		orig := cm.DeepCopy()
		controllerutil.RemoveFinalizer(cm, widgetFinalizer)
		return client.IgnoreNotFound(r.Patch(ctx, cm, client.MergeFrom(orig)))
	})
}

func (r *RetriedCleanup) reconcileNormal(ctx context.Context, cm *corev1.ConfigMap) error {
	key := client.ObjectKeyFromObject(cm)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, key, cm); err != nil {
			return err
		}
		orig := cm.DeepCopy()
		controllerutil.RemoveFinalizer(cm, widgetFinalizer)
		return r.Patch(ctx, cm, client.MergeFrom(orig)) // want "^unconditional-patch: Patch of cm .*finalizers list.*; add client.MergeFromWithOptimisticLock.* \\(the retry.RetryOnConflict around it never retries: a patch without a precondition gets no 409\\)$"
	})
}
