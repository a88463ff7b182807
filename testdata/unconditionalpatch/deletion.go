package unconditionalpatch

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/unconditionalpatch/patchutil"
)

// Finalizer removal on an object being deleted: the API server refuses new
// finalizers once the deletion timestamp is set, so a merge patch of a stale
// finalizer list that brings back one removed meanwhile is rejected (422),
// not applied. A change that only removes finalizers there is not reported.

// BundleCleanup removes its finalizer in the deletion branch, and adds it
// otherwise: the removal is safe, the addition is the positive control.
type BundleCleanup struct {
	client.Client
}

func (r *BundleCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.DeletionTimestamp != nil {
		patch := client.MergeFrom(widget.DeepCopy())
		if controllerutil.RemoveFinalizer(&widget, widgetFinalizer) {
			if err := r.Patch(ctx, &widget, patch); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	patch := client.MergeFrom(widget.DeepCopy())
	if controllerutil.AddFinalizer(&widget, widgetFinalizer) {
		if err := r.Patch(ctx, &widget, patch); err != nil { // want "^unconditional-patch: Patch of widget .*finalizers list"
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// SecretCleanup tests the getter; the removal runs in the branch where the
// timestamp is not zero.
type SecretCleanup struct {
	client.Client
}

func (r *SecretCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !secret.GetDeletionTimestamp().IsZero() {
		patch := client.MergeFrom(secret.DeepCopy())
		if controllerutil.RemoveFinalizer(secret, widgetFinalizer) {
			return ctrl.Result{}, r.Patch(ctx, secret, patch)
		}
	}
	return ctrl.Result{}, nil
}

// FilteredFinalizers filters the list by hand and sets it back, after an
// early return for objects not being deleted.
type FilteredFinalizers struct {
	client.Client
}

func (r *FilteredFinalizers) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	base := cm.DeepCopy()
	var kept []string
	for _, f := range cm.Finalizers {
		if f != widgetFinalizer {
			kept = append(kept, f)
		}
	}
	cm.Finalizers = kept
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base))
}

// without returns the list without f.
func without(list []string, f string) []string {
	out := make([]string, 0, len(list))
	for _, x := range list {
		if x != f {
			out = append(out, x)
		}
	}
	return out
}

// SetFiltered sets a list filtered by a helper with SetFinalizers, through
// a helper given the object its caller read; the positive control adds one.
type SetFiltered struct {
	client.Client
}

func (r *SetFiltered) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.release(ctx, &cm); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.audit(ctx, &cm)
}

func (r *SetFiltered) release(ctx context.Context, obj client.Object) error {
	if obj.GetDeletionTimestamp() == nil {
		return nil
	}
	base := obj.DeepCopyObject().(client.Object)
	obj.SetFinalizers(without(obj.GetFinalizers(), widgetFinalizer))
	return r.Patch(ctx, obj, client.MergeFrom(base))
}

func (r *SetFiltered) audit(ctx context.Context, obj client.Object) error {
	if obj.GetDeletionTimestamp() == nil {
		return nil
	}
	base := obj.DeepCopyObject().(client.Object)
	obj.SetFinalizers(append(obj.GetFinalizers(), "example.com/audit"))
	return r.Patch(ctx, obj, client.MergeFrom(base)) // want "^unconditional-patch: Patch of obj .*finalizers list"
}

// UndeletedCleanup removes its finalizer without a test of the deletion
// timestamp: a finalizer another controller added meanwhile is dropped.
type UndeletedCleanup struct {
	client.Client
}

func (r *UndeletedCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels["example.com/retired"] != "true" {
		return ctrl.Result{}, nil
	}
	base := cm.DeepCopy()
	controllerutil.RemoveFinalizer(&cm, widgetFinalizer)
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

// ReplacedFinalizers sets a list that is not a part of the one read in the
// deletion branch: it may add finalizers.
type ReplacedFinalizers struct {
	client.Client
}

func (r *ReplacedFinalizers) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.DeletionTimestamp == nil {
		return ctrl.Result{}, nil
	}
	base := cm.DeepCopy()
	cm.Finalizers = append(without(cm.Finalizers, widgetFinalizer), "example.com/audit")
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

// RemovalAndOwner removes its finalizer in the deletion branch and also
// changes the owner references: the other list is a read-modify-write.
type RemovalAndOwner struct {
	client.Client
}

func (r *RemovalAndOwner) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !cm.DeletionTimestamp.IsZero() {
		base := cm.DeepCopy()
		controllerutil.RemoveFinalizer(&cm, widgetFinalizer)
		cm.OwnerReferences = append(cm.OwnerReferences, metav1.OwnerReference{APIVersion: "v1", Kind: "Namespace", Name: cm.Namespace})
		return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*ownerReferences list"
	}
	return ctrl.Result{}, nil
}

// HelperCleanup removes its finalizer in the deletion branch through the
// operator's helper package (a filtering loop and SetFinalizers, known from
// the helper's summary); adding one there through a helper is reported.
type HelperCleanup struct {
	client.Client
}

func (r *HelperCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	base := widget.DeepCopy()
	patchutil.DropFinalizer(widget, widgetFinalizer)
	if err := r.Patch(ctx, widget, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, err
	}
	base = widget.DeepCopy()
	if patchutil.EnsureFinalizer(widget, "example.com/audit") {
		return ctrl.Result{}, r.Patch(ctx, widget, client.MergeFrom(base)) // want "^unconditional-patch: Patch of widget .*finalizers list"
	}
	return ctrl.Result{}, nil
}

// LateStatusCleanup removes its finalizer in a helper it calls only in the
// deletion branch, then leaves the branch and patches status and
// finalizers together after it: the object is still being deleted when the
// patch runs (a deletion timestamp is never unset), so the removal is safe.
// Its positive control is the removal made outside the branch, patched the
// same way.
type LateStatusCleanup struct {
	client.Client
}

func (r *LateStatusCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := cm.DeepCopy()
	if !cm.DeletionTimestamp.IsZero() {
		r.finalize(&cm)
	}
	cm.Annotations = map[string]string{"example.com/observed": "true"}
	if err := r.Patch(ctx, &cm, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, err
	}
	base = cm.DeepCopy()
	if cm.Labels["example.com/retired"] == "true" {
		r.finalize(&cm)
	}
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func (r *LateStatusCleanup) finalize(cm *corev1.ConfigMap) {
	controllerutil.RemoveFinalizer(cm, widgetFinalizer)
}
