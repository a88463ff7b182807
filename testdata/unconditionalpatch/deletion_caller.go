package unconditionalpatch

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/unconditionalpatch/patchutil"
)

// An exported helper whose every call in the package runs while the object
// it is given is being deleted, or gives it nil: its finalizer removal is
// sent while the deletion timestamp is set (a stale list cannot add a
// finalizer back), whatever branch the helper itself is in.
type CacheReconciler struct {
	client.Client
}

func (r *CacheReconciler) reconcileConfigMap(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.DeletionTimestamp.IsZero() {
		return nil
	}
	return DropCacheFinalizers(ctx, r.Client, cm, nil)
}

func (r *CacheReconciler) reconcileSecret(ctx context.Context, secret *corev1.Secret) error {
	if secret.DeletionTimestamp == nil {
		return nil
	}
	return DropCacheFinalizers(ctx, r.Client, nil, secret)
}

// DropCacheFinalizers removes the cache finalizer from whichever object it
// is given.
func DropCacheFinalizers(ctx context.Context, c client.Client, cm *corev1.ConfigMap, secret *corev1.Secret) error { // want DropCacheFinalizers:"reads into #2; reads into #3; writes #2 with patch returning its error; writes #3 with patch returning its error; changes lists of #2; changes lists of #3"
	if cm != nil {
		patch := client.MergeFrom(cm.DeepCopy())
		cm.Finalizers = patchutil.RemoveString(cm.Finalizers, widgetFinalizer)
		return c.Patch(ctx, cm, patch)
	}
	if secret != nil {
		patch := client.MergeFrom(secret.DeepCopy())
		secret.Finalizers = patchutil.RemoveString(secret.Finalizers, widgetFinalizer)
		return c.Patch(ctx, secret, patch)
	}
	return nil
}

// The control: one call of the helper runs on an object not being deleted.
func (r *CacheReconciler) resetSecret(ctx context.Context, secret *corev1.Secret) error {
	return DropLeaseFinalizer(ctx, r.Client, secret)
}

func (r *CacheReconciler) finalizeSecret(ctx context.Context, secret *corev1.Secret) error {
	if secret.DeletionTimestamp == nil {
		return nil
	}
	return DropLeaseFinalizer(ctx, r.Client, secret)
}

// DropLeaseFinalizer removes the lease finalizer.
func DropLeaseFinalizer(ctx context.Context, c client.Client, secret *corev1.Secret) error { // want DropLeaseFinalizer:"reads into #2; writes #2 with patch returning its error; changes lists of #2"
	patch := client.MergeFrom(secret.DeepCopy())
	secret.Finalizers = patchutil.RemoveString(secret.Finalizers, widgetFinalizer)
	return c.Patch(ctx, secret, patch) // want `^unconditional-patch: Patch of secret .*finalizers`
}

var _ = []any{(*CacheReconciler).reconcileConfigMap, (*CacheReconciler).reconcileSecret, (*CacheReconciler).resetSecret, (*CacheReconciler).finalizeSecret}
