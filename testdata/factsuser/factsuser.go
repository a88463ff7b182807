// Package factsuser calls the helpers of package facts: every rule sees
// through them by their exported summaries.
package factsuser

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"lostupdate.test/facts"
)

// A builder from another package returns a constructed object.
func badUpdateBuiltElsewhere(ctx context.Context, c client.Client) error {
	desired := facts.NewConfigMap("ns", "settings", map[string]string{"a": "b"})
	return c.Update(ctx, desired) // want "^unconditional-update: .*desired"
}

// A helper from another package writes what it is given: a built object.
func badSaveBuilt(ctx context.Context, c client.Client) error {
	return facts.Save(ctx, c, facts.NewConfigMap("ns", "settings", nil)) // want "^unconditional-update: "
}

// The same helper through a method of a wrapper type.
func badUpdateObjectBuilt(ctx context.Context, k *facts.Client) error {
	return k.UpdateObject(ctx, facts.NewConfigMap("ns", "settings", nil)) // want "^unconditional-update: "
}

// A read-modify-write through the helpers: the copy carries the read's resourceVersion.
func okSaveLatestCopy(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm, err := facts.LatestCopy(ctx, c, key)
	if err != nil {
		return err
	}
	cm.Data["touched"] = "true"
	return facts.Save(ctx, c, cm)
}

// A built object filled by a helper that reads into it.
func okFetchIntoBuilt(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	if err := facts.Fetch(ctx, c, key, cm); err != nil {
		return err
	}
	cm.Data["touched"] = "true"
	return c.Update(ctx, cm)
}

// A read helper outside a retry helper from another package: stale every attempt.
func badStaleThroughHelpers(ctx context.Context, cs kubernetes.Interface) error {
	dep, err := facts.GetDeployment(ctx, cs, "ns", "web")
	if err != nil {
		return err
	}
	return facts.OnConflict(func() error {
		dep.Spec.Paused = true
		_, err := cs.AppsV1().Deployments("ns").Update(ctx, dep, metav1.UpdateOptions{}) // want "^stale-retry: .*dep"
		return err
	})
}

// The same retry helper with the read inside.
func okReadInsideHelperRetry(ctx context.Context, cs kubernetes.Interface) error {
	return facts.OnConflict(func() error {
		dep, err := facts.GetDeployment(ctx, cs, "ns", "web")
		if err != nil {
			return err
		}
		dep.Spec.Paused = true
		_, err = cs.AppsV1().Deployments("ns").Update(ctx, dep, metav1.UpdateOptions{})
		return err
	})
}

// A hand-written retry method of a wrapper type, with the read outside.
func badStaleInMethodRetry(ctx context.Context, k *facts.Client, c client.Client, key client.ObjectKey) error {
	cm, err := facts.LatestCopy(ctx, c, key)
	if err != nil {
		return err
	}
	return k.Retry(ctx, func(ctx context.Context) error {
		cm.Data["x"] = "y"
		return c.Update(ctx, cm) // want "^stale-retry: .*cm" "^unbounded-retry: "
	})
}

// The write helper returns the 409; dropping it loses the change.
func badDropHelperError(ctx context.Context, c client.Client, key client.ObjectKey) {
	cm, err := facts.LatestCopy(ctx, c, key)
	if err != nil {
		return
	}
	cm.Data["x"] = "y"
	_ = facts.Save(ctx, c, cm) // want "^missing-retry: .*cm"
}

// A conflict test helper from another package, used to swallow the conflict.
func badSwallowWithHelperTest(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm, err := facts.LatestCopy(ctx, c, key)
	if err != nil {
		return err
	}
	cm.Data["x"] = "y"
	if err := c.Update(ctx, cm); err != nil { // want "^missing-retry: .*cm"
		if facts.IsRetryable(err) {
			logf.FromContext(ctx).Info("conflict, skipping")
			return nil
		}
		return err
	}
	return nil
}

// The helper retries inside itself: a caller that drops its error is not
// the one to blame (the helper's own stale retry is reported in its package).
func okHelperRetriesItself(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) {
	_ = facts.SaveInRetry(ctx, cs, cm)
}

// The functions above are run by the controller's workers.
var _ = []any{badDropHelperError, badSaveBuilt, badStaleInMethodRetry, badStaleThroughHelpers, badSwallowWithHelperTest, badUpdateBuiltElsewhere, badUpdateObjectBuilt}

// The functions above are run by the program's workers.
var _ = []any{okFetchIntoBuilt, okHelperRetriesItself, okReadInsideHelperRetry, okSaveLatestCopy}

// A finalizer removed with a list helper of another package, from a copy
// of a ConfigMap being deleted, in a helper that only the deletion branch
// calls: a stale list cannot bring a finalizer back.
type cleanupReconciler struct {
	client.Client
}

func (r *cleanupReconciler) reconcile(ctx context.Context, key client.ObjectKey) error {
	cm := new(corev1.ConfigMap)
	if err := r.Get(ctx, key, cm); err != nil {
		return client.IgnoreNotFound(err)
	}
	if cm.ObjectMeta.DeletionTimestamp == nil {
		return r.dropLegacy(ctx, cm)
	}
	return r.release(ctx, cm)
}

func (r *cleanupReconciler) release(ctx context.Context, cm *corev1.ConfigMap) error {
	cm2 := cm.DeepCopy()
	cm2.Finalizers = facts.WithoutString(cm2.Finalizers, "example.com/cleanup")
	patch := client.MergeFrom(cm)
	if err := r.Patch(ctx, cm2, patch); err != nil {
		return err
	}
	return nil
}

// The control: the same removal from a ConfigMap that is not being deleted.
func (r *cleanupReconciler) dropLegacy(ctx context.Context, cm *corev1.ConfigMap) error {
	cm2 := cm.DeepCopy()
	cm2.Finalizers = facts.WithoutString(cm2.Finalizers, "example.com/legacy")
	return r.Patch(ctx, cm2, client.MergeFrom(cm)) // want "^unconditional-patch: Patch of cm2 .*finalizers list"
}

// The function above is run by the controller's workers.
var _ = []any{(*cleanupReconciler).reconcile}
