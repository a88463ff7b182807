package mutations

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/mutations/objutil"
)

// Helpers that change a list of the object they are given: the caller, who
// holds the snapshot, sees the change through the helper's summary (in this
// package) or its fact (in another).

func ensureFinalizer(obj client.Object, f string) {
	obj.SetFinalizers(append(obj.GetFinalizers(), f))
}

func addConfigMapFinalizer(cm *corev1.ConfigMap, f string) {
	cm.SetFinalizers(append(cm.GetFinalizers(), f))
}

func appendFinalizer(cm *corev1.ConfigMap, f string) {
	cm.Finalizers = append(cm.Finalizers, f)
}

func addMetaFinalizer(meta *metav1.ObjectMeta, f string) {
	meta.Finalizers = append(meta.Finalizers, f)
}

func helperInterface(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	ensureFinalizer(cm, finalizer)
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func helperPromotedSetter(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	addConfigMapFinalizer(cm, finalizer)
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func helperField(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	appendFinalizer(cm, finalizer)
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

// The helper is given the object's metadata.
func helperMeta(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	addMetaFinalizer(&cm.ObjectMeta, finalizer)
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func okHelperLocked(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	addConfigMapFinalizer(cm, finalizer)
	addMetaFinalizer(&cm.ObjectMeta, finalizer)
	return c.Patch(ctx, cm, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func okHelperBeforeSnapshot(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	addConfigMapFinalizer(cm, finalizer)
	addMetaFinalizer(&cm.ObjectMeta, finalizer)
	base := cm.DeepCopy()
	cm.Data = map[string]string{"state": "ready"}
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

// Helpers of another package, known by their facts.

func factsInterface(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	objutil.EnsureFinalizer(secret, finalizer)
	return c.Patch(ctx, secret, client.MergeFrom(base)) // want "^unconditional-patch: Patch of secret .*finalizers list"
}

func factsPromotedSetter(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	objutil.AddSecretFinalizer(secret, finalizer)
	return c.Patch(ctx, secret, client.MergeFrom(base)) // want "^unconditional-patch: Patch of secret .*finalizers list"
}

func factsMeta(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	objutil.AddMetaFinalizer(&secret.ObjectMeta, finalizer)
	return c.Patch(ctx, secret, client.MergeFrom(base)) // want "^unconditional-patch: Patch of secret .*finalizers list"
}

func okFactsLocked(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	objutil.EnsureFinalizer(secret, finalizer)
	objutil.AddSecretFinalizer(secret, finalizer)
	return c.Patch(ctx, secret, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func okFactsUpdate(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	objutil.EnsureFinalizer(secret, finalizer)
	objutil.AddMetaFinalizer(&secret.ObjectMeta, finalizer)
	return c.Update(ctx, secret)
}

// A helper that sets one label: a map, merged key by key.
func okFactsLabel(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	objutil.Label(secret, "widgets.example.com/managed", "true")
	return c.Patch(ctx, secret, client.MergeFrom(base))
}

// The functions above are run by the controller's workers.
var _ = []any{factsInterface, factsMeta, factsPromotedSetter, helperField, helperInterface, helperMeta, helperPromotedSetter}

// The functions above are run by the program's workers.
var _ = []any{okFactsLabel, okFactsLocked, okFactsUpdate, okHelperBeforeSnapshot, okHelperLocked}
