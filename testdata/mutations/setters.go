package mutations

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The setters of ObjectMeta, promoted to the typed object: the receiver is
// the embedded ObjectMeta.

func setFinalizersTyped(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.SetFinalizers(append(cm.GetFinalizers(), finalizer))
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func okSetFinalizersTypedLocked(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.SetFinalizers(append(cm.GetFinalizers(), finalizer))
	return c.Patch(ctx, cm, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func okSetFinalizersTypedUpdate(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	cm.SetFinalizers(append(cm.GetFinalizers(), finalizer))
	return c.Update(ctx, cm)
}

func okSetFinalizersBeforeSnapshot(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	cm.SetFinalizers(append(cm.GetFinalizers(), finalizer))
	base := cm.DeepCopy()
	cm.Data = map[string]string{"state": "ready"}
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

// A value of the type, not a pointer: the receiver is &cm.ObjectMeta of a
// local.
func setOwnerReferencesValue(ctx context.Context, c client.Client, key client.ObjectKey, owner metav1.OwnerReference) error {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	secret.SetOwnerReferences(append(secret.GetOwnerReferences(), owner))
	return c.Patch(ctx, &secret, client.MergeFrom(base)) // want "^unconditional-patch: Patch of secret .*ownerReferences list"
}

// The setter called on the ObjectMeta field by name.
func setFinalizersOnMeta(ctx context.Context, c client.Client, key client.ObjectKey) error {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	secret.ObjectMeta.SetFinalizers(append(secret.ObjectMeta.GetFinalizers(), finalizer))
	return c.Patch(ctx, &secret, client.MergeFrom(base)) // want "^unconditional-patch: Patch of secret .*finalizers list"
}

// Labels and annotations are maps: a merge patch merges them key by key,
// so setting one key loses no concurrent change.
func okSetLabelsTyped(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	labels := cm.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["widgets.example.com/managed"] = "true"
	cm.SetLabels(labels)
	annotations := cm.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations["widgets.example.com/reconciled"] = "true"
	cm.SetAnnotations(annotations)
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

// The setter of Unstructured writes into its map.
func setFinalizersUnstructured(ctx context.Context, c client.Client, key client.ObjectKey) error {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("widgets.example.com/v1")
	u.SetKind("Widget")
	if err := c.Get(ctx, key, u); err != nil {
		return err
	}
	base := u.DeepCopy()
	u.SetFinalizers(append(u.GetFinalizers(), finalizer))
	return c.Patch(ctx, u, client.MergeFrom(base)) // want "^unconditional-patch: Patch of u .*finalizers list"
}

func okSetLabelsUnstructured(ctx context.Context, c client.Client, key client.ObjectKey) error {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("widgets.example.com/v1")
	u.SetKind("Widget")
	if err := c.Get(ctx, key, u); err != nil {
		return err
	}
	base := u.DeepCopy()
	labels := u.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["widgets.example.com/managed"] = "true"
	u.SetLabels(labels)
	return c.Patch(ctx, u, client.MergeFrom(base))
}

// Through a client.Object interface value.
func setFinalizersObject(ctx context.Context, c client.Client, key client.ObjectKey, obj client.Object) error {
	if err := c.Get(ctx, key, obj); err != nil {
		return err
	}
	base := obj.DeepCopyObject().(client.Object)
	obj.SetFinalizers(append(obj.GetFinalizers(), finalizer))
	return c.Patch(ctx, obj, client.MergeFrom(base)) // want "^unconditional-patch: Patch of obj .*finalizers list"
}

func okSetFinalizersObjectLocked(ctx context.Context, c client.Client, key client.ObjectKey, obj client.Object) error {
	if err := c.Get(ctx, key, obj); err != nil {
		return err
	}
	base := obj.DeepCopyObject().(client.Object)
	obj.SetFinalizers(append(obj.GetFinalizers(), finalizer))
	return c.Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// Through the metav1.Object of the object.
func setFinalizersObjectMeta(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	var meta metav1.Object = cm
	meta.SetFinalizers(append(meta.GetFinalizers(), finalizer))
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

// A metadata-only object: PartialObjectMetadata embeds ObjectMeta too.
func setFinalizersPartial(ctx context.Context, c client.Client, key client.ObjectKey) error {
	pm := &metav1.PartialObjectMetadata{}
	pm.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	if err := c.Get(ctx, key, pm); err != nil {
		return err
	}
	base := pm.DeepCopy()
	pm.SetFinalizers(append(pm.GetFinalizers(), finalizer))
	return c.Patch(ctx, pm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of pm .*finalizers list"
}

// The functions above are run by the controller's workers.
var _ = []any{setFinalizersObject, setFinalizersObjectMeta, setFinalizersOnMeta, setFinalizersPartial, setFinalizersTyped, setFinalizersUnstructured, setOwnerReferencesValue}

// The functions above are run by the program's workers.
var _ = []any{okSetFinalizersBeforeSnapshot, okSetFinalizersObjectLocked, okSetFinalizersTypedLocked, okSetFinalizersTypedUpdate, okSetLabelsTyped, okSetLabelsUnstructured}
