package staleread

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// A re-read through the manager's cache inside a conflict retry: every
// attempt reads the same informer store, which has not seen the write that
// made the last attempt fail.
type LabelSyncer struct {
	client.Client
	Cache cache.Cache
}

func (s *LabelSyncer) syncLabels(ctx context.Context, key types.NamespacedName, labels map[string]string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var cm corev1.ConfigMap
		if err := s.Cache.Get(ctx, key, &cm); err != nil { // want `^stale-read: lister/informer Get inside retry\.RetryOnConflict reads the cache`
			return err
		}
		cm.Labels = labels
		return s.Update(ctx, &cm)
	})
}

// The same retry reading through the manager's API reader: fresh.
func syncLabelsFresh(ctx context.Context, mgr manager.Manager, key types.NamespacedName, labels map[string]string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var cm corev1.ConfigMap
		if err := mgr.GetAPIReader().Get(ctx, key, &cm); err != nil {
			return err
		}
		cm.Labels = labels
		return mgr.GetClient().Update(ctx, &cm)
	})
}

// The manager's cache, asked for directly: the same as a field of its type.
func syncLabelsFromManagerCache(ctx context.Context, mgr manager.Manager, key types.NamespacedName, labels map[string]string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var cm corev1.ConfigMap
		if err := mgr.GetCache().Get(ctx, key, &cm); err != nil { // want `^stale-read: lister/informer Get inside retry\.RetryOnConflict reads the cache`
			return err
		}
		cm.Labels = labels
		return mgr.GetClient().Update(ctx, &cm)
	})
}

// A merge patch without a precondition, from the cache, inside the retry:
// the patch sends only the new annotation and never fails with 409
// Conflict, so the retry never runs a second attempt to read stale again.
func (s *LabelSyncer) annotate(ctx context.Context, key types.NamespacedName, k, v string) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		var pod corev1.Pod
		if err := s.Cache.Get(ctx, key, &pod); err != nil {
			return err
		}
		patched := pod.DeepCopy()
		patched.Annotations[k] = v
		return s.Patch(ctx, patched, client.MergeFrom(&pod))
	})
}

// The control: the same patch with the optimistic lock fails with 409
// when the cached Pod is stale, and every attempt reads it again.
func (s *LabelSyncer) annotateLocked(ctx context.Context, key types.NamespacedName, k, v string) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		var pod corev1.Pod
		if err := s.Cache.Get(ctx, key, &pod); err != nil { // want `^stale-read: lister/informer Get inside retry\.RetryOnConflict reads the cache`
			return err
		}
		patched := pod.DeepCopy()
		patched.Annotations[k] = v
		return s.Patch(ctx, patched, client.MergeFromWithOptions(&pod, client.MergeFromWithOptimisticLock{}))
	})
}

// The functions above are run by the program's workers.
var _ = []any{(*LabelSyncer).syncLabels, syncLabelsFresh, syncLabelsFromManagerCache, (*LabelSyncer).annotate, (*LabelSyncer).annotateLocked}
