package unconditionalpatch

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// RereadCleanup's finalizer helper fetches the latest version of the
// Widget it is given, by that Widget's key, before it removes the
// finalizer: the same object, read again, still being deleted (a deletion
// timestamp is never unset). Its one call is in the deletion branch.
type RereadCleanup struct {
	client.Client
}

func (r *RereadCleanup) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !w.DeletionTimestamp.IsZero() {
		if err := r.releaseParent(ctx, &w); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.removeFinalizer(ctx, &w)
	}
	return ctrl.Result{}, r.releaseOnPause(ctx, &w)
}

func (r *RereadCleanup) removeFinalizer(ctx context.Context, w *widgetsv1.Widget) error {
	latest := &widgetsv1.Widget{}
	if err := r.Get(ctx, client.ObjectKey{Name: w.Name, Namespace: w.Namespace}, latest); err != nil {
		return err
	}
	patch := client.MergeFrom(latest.DeepCopy())
	controllerutil.RemoveFinalizer(latest, widgetFinalizer)
	return r.Patch(ctx, latest, patch)
}

// The positive control: the same re-read and removal, for a Widget that
// is not being deleted (paused): a finalizer another actor adds meanwhile
// is dropped by the merge patch.
func (r *RereadCleanup) releaseOnPause(ctx context.Context, w *widgetsv1.Widget) error {
	if !w.Spec.Paused {
		return nil
	}
	latest := &widgetsv1.Widget{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(w), latest); err != nil {
		return err
	}
	patch := client.MergeFrom(latest.DeepCopy())
	controllerutil.RemoveFinalizer(latest, widgetFinalizer)
	return r.Patch(ctx, latest, patch) // want "^unconditional-patch: Patch of latest sends a merge patch from MergeFrom without a precondition"
}

// A key whose name is another field of the object (the parent it names,
// here by its image) is another object, not being deleted: the positive
// control.
func (r *RereadCleanup) releaseParent(ctx context.Context, w *widgetsv1.Widget) error {
	parent := &widgetsv1.Widget{}
	if err := r.Get(ctx, client.ObjectKey{Name: w.Spec.Image, Namespace: w.Namespace}, parent); err != nil {
		return err
	}
	patch := client.MergeFrom(parent.DeepCopy())
	controllerutil.RemoveFinalizer(parent, widgetFinalizer)
	return r.Patch(ctx, parent, patch) // want "^unconditional-patch: Patch of parent sends a merge patch from MergeFrom without a precondition"
}

// An unstructured object read by the key of another holds whatever kind
// its GVK names: another object, not being deleted.
func (r *RereadCleanup) releaseChild(ctx context.Context, owner *unstructured.Unstructured) error {
	if owner.GetDeletionTimestamp() == nil {
		return nil
	}
	child := &unstructured.Unstructured{}
	child.SetGroupVersionKind(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
	if err := r.Get(ctx, client.ObjectKeyFromObject(owner), child); err != nil {
		return err
	}
	patch := client.MergeFrom(child.DeepCopy())
	controllerutil.RemoveFinalizer(child, widgetFinalizer)
	return r.Patch(ctx, child, patch) // want "^unconditional-patch: Patch of child sends a merge patch from MergeFrom without a precondition"
}

var _ = []any{(*RereadCleanup).releaseChild}
