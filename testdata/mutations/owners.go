package mutations

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/mutations/objutil"
)

// The owner-reference helpers change the ownerReferences list of their
// second argument: a merge patch of it sends the whole list, and drops an
// owner added meanwhile.

// ctrl.SetControllerReference is a variable holding the controllerutil
// function.
func adoptCtrl(ctx context.Context, c client.Client, scheme *runtime.Scheme, owner *widgetsv1.Widget, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	if err := ctrl.SetControllerReference(owner, cm, scheme); err != nil {
		return err
	}
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*ownerReferences list"
}

func okAdoptCtrlLocked(ctx context.Context, c client.Client, scheme *runtime.Scheme, owner *widgetsv1.Widget, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	if err := ctrl.SetControllerReference(owner, cm, scheme); err != nil {
		return err
	}
	return c.Patch(ctx, cm, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func adoptControllerutil(ctx context.Context, c client.Client, scheme *runtime.Scheme, owner *widgetsv1.Widget, key client.ObjectKey) error {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	if err := controllerutil.SetControllerReference(owner, &secret, scheme, controllerutil.WithBlockOwnerDeletion(false)); err != nil {
		return err
	}
	return c.Patch(ctx, &secret, client.MergeFrom(base)) // want "^unconditional-patch: Patch of secret .*ownerReferences list"
}

func addOwnerReference(ctx context.Context, c client.Client, scheme *runtime.Scheme, owner *widgetsv1.Widget, key client.ObjectKey) error {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return err
	}
	base := secret.DeepCopy()
	if err := controllerutil.SetOwnerReference(owner, &secret, scheme); err != nil {
		return err
	}
	return c.Patch(ctx, &secret, client.MergeFrom(base)) // want "^unconditional-patch: Patch of secret .*ownerReferences list"
}

func okAddOwnerReferenceUpdate(ctx context.Context, c client.Client, scheme *runtime.Scheme, owner *widgetsv1.Widget, key client.ObjectKey) error {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return err
	}
	if err := controllerutil.SetOwnerReference(owner, &secret, scheme); err != nil {
		return err
	}
	return c.Update(ctx, &secret)
}

// The reference is set on the object before the snapshot: the patch sends
// only what changed after it.
func okAdoptBeforeSnapshot(ctx context.Context, c client.Client, scheme *runtime.Scheme, owner *widgetsv1.Widget, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	if err := ctrl.SetControllerReference(owner, cm, scheme); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.Data = map[string]string{"owner": owner.Name}
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

// Through a helper of another package that calls ctrl.SetControllerReference.
func adoptThroughHelper(ctx context.Context, c client.Client, scheme *runtime.Scheme, owner *widgetsv1.Widget, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	if err := objutil.Adopt(owner, cm, scheme); err != nil {
		return err
	}
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*ownerReferences list"
}

// The functions above are run by the controller's workers.
var _ = []any{addOwnerReference, adoptControllerutil, adoptCtrl, adoptThroughHelper}

// The functions above are run by the program's workers.
var _ = []any{okAddOwnerReferenceUpdate, okAdoptBeforeSnapshot, okAdoptCtrlLocked}
