package mutations

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/mutations/objutil"
)

// A finalizer list filtered: a list change, sent whole by a merge patch. On
// an object being deleted a change that only removes finalizers is safe
// (the API server refuses to bring one back), so each filter is reported
// outside the deletion branch and not in it.

func filterLoop(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	var kept []string
	for _, f := range cm.Finalizers {
		if f == finalizer {
			continue
		}
		kept = append(kept, f)
	}
	cm.Finalizers = kept
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func okFilterLoopDeleting(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	if cm.DeletionTimestamp.IsZero() {
		return nil
	}
	base := cm.DeepCopy()
	var kept []string
	for _, f := range cm.Finalizers {
		if f == finalizer {
			continue
		}
		kept = append(kept, f)
	}
	cm.Finalizers = kept
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

func filterLoopSetter(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	kept := []string{}
	for _, f := range cm.GetFinalizers() {
		if f == finalizer {
			continue
		}
		kept = append(kept, f)
	}
	cm.SetFinalizers(kept)
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func okFilterLoopSetterDeleting(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	if cm.GetDeletionTimestamp() == nil {
		return nil
	}
	base := cm.DeepCopy()
	kept := []string{}
	for _, f := range cm.GetFinalizers() {
		if f == finalizer {
			continue
		}
		kept = append(kept, f)
	}
	cm.SetFinalizers(kept)
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

func deleteFunc(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.Finalizers = slices.DeleteFunc(cm.Finalizers, func(f string) bool { return f == finalizer })
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func okDeleteFuncDeleting(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	if cm.DeletionTimestamp == nil {
		return nil
	}
	base := cm.DeepCopy()
	cm.Finalizers = slices.DeleteFunc(cm.Finalizers, func(f string) bool { return f == finalizer })
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

func okDeleteFuncSetterDeleting(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	if !secret.DeletionTimestamp.IsZero() {
		base := secret.DeepCopy()
		secret.SetFinalizers(slices.DeleteFunc(secret.GetFinalizers(), func(f string) bool { return f == finalizer }))
		return c.Patch(ctx, secret, client.MergeFrom(base))
	}
	return nil
}

func deleteIndex(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	i := slices.Index(cm.Finalizers, finalizer)
	if i < 0 {
		return nil
	}
	base := cm.DeepCopy()
	cm.Finalizers = slices.Delete(cm.Finalizers, i, i+1)
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func okDeleteIndexDeleting(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	i := slices.Index(cm.Finalizers, finalizer)
	if i < 0 || cm.DeletionTimestamp == nil {
		return nil
	}
	base := cm.DeepCopy()
	cm.Finalizers = slices.Delete(cm.Finalizers, i, i+1)
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

// slices.DeleteFunc of the list on a copy: the list the copy holds is the
// one the object was read with.
func okDeleteFuncCloneDeleting(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	if cm.DeletionTimestamp == nil {
		return nil
	}
	base := cm.DeepCopy()
	cm.Finalizers = slices.DeleteFunc(slices.Clone(cm.Finalizers), func(f string) bool { return f == finalizer })
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

// A removal through a helper of another package, known by its fact.
func factsDrop(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	objutil.DropFinalizer(secret, finalizer)
	return c.Patch(ctx, secret, client.MergeFrom(base)) // want "^unconditional-patch: Patch of secret .*finalizers list"
}

func okFactsDropDeleting(ctx context.Context, c client.Client, key client.ObjectKey) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, key, secret); err != nil {
		return err
	}
	if secret.DeletionTimestamp.IsZero() {
		return nil
	}
	base := secret.DeepCopy()
	objutil.DropFinalizer(secret, finalizer)
	return c.Patch(ctx, secret, client.MergeFrom(base))
}

// The functions above are run by the controller's workers.
var _ = []any{deleteFunc, deleteIndex, factsDrop, filterLoop, filterLoopSetter}

// The functions above are run by the program's workers.
var _ = []any{okDeleteFuncCloneDeleting, okDeleteFuncDeleting, okDeleteFuncSetterDeleting, okDeleteIndexDeleting, okFactsDropDeleting, okFilterLoopDeleting, okFilterLoopSetterDeleting}
