// Package patchhelpers holds patches whose snapshot and change meet only
// across a call: a wrapper given the snapshot and the object, a helper given
// the patch, and patchers that keep the snapshot in a struct field
// (fluxcd/pkg/runtime/patch, and one of the package's own).
package patchhelpers

import (
	"context"

	"github.com/fluxcd/pkg/runtime/patch"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/patchhelpers/kubeutil"
)

const widgetFinalizer = "widgets.example.com/cleanup"

// RestoreReconciler copies the Widget, changes its finalizers and hands both
// to a wrapper that merge-patches one from the other. Adding the finalizer
// replaces the whole list: reported at the wrapper's call. Removing it in the
// deletion branch is not: the API server refuses new finalizers then, so a
// stale list is rejected (422) rather than applied.
type RestoreReconciler struct {
	client.Client
}

func (r *RestoreReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	restore := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, restore); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !restore.DeletionTimestamp.IsZero() {
		if controllerutil.ContainsFinalizer(restore, widgetFinalizer) {
			original := restore.DeepCopy()
			controllerutil.RemoveFinalizer(restore, widgetFinalizer)
			if err := kubeutil.PatchResource(original, restore, r.Client); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(restore, widgetFinalizer) {
		original := restore.DeepCopy()
		controllerutil.AddFinalizer(restore, widgetFinalizer)
		if err := kubeutil.PatchResource(original, restore, r.Client); err != nil { // want `^unconditional-patch: PatchResource of restore sends a merge patch from MergeFrom without a precondition, and the finalizers list of restore changed since the snapshot \(a merge patch replaces the whole list\), .*instead of kubeutil\.PatchResource, which patches without a lock`
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// LockedRestoreReconciler adds its finalizer through the wrapper that sends
// the optimistic lock: a concurrent change fails with 409 Conflict.
type LockedRestoreReconciler struct {
	client.Client
}

func (r *LockedRestoreReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	restore := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, restore); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	original := restore.DeepCopy()
	controllerutil.AddFinalizer(restore, widgetFinalizer)
	return ctrl.Result{}, kubeutil.PatchResourceLocked(original, restore, r.Client)
}

// removeFinalizerForObject removes a finalizer from a copy of the object it
// is given and merge-patches it from another copy, through the wrapper; it
// does not test the deletion timestamp, so the stale list may be applied.
func removeFinalizerForObject(obj client.Object, finalizer string, c client.Client) error {
	if controllerutil.ContainsFinalizer(obj, finalizer) {
		update := obj.DeepCopyObject().(client.Object)
		original := obj.DeepCopyObject().(client.Object)
		controllerutil.RemoveFinalizer(update, finalizer)
		return kubeutil.PatchResource(original, update, c) // want `^unconditional-patch: PatchResource of update sends a merge patch .*the finalizers list of update changed since the snapshot`
	}
	return nil
}

// RemoveAll is the caller of removeFinalizerForObject.
func RemoveAll(ctx context.Context, c client.Client) error {
	var list widgetsv1.WidgetList
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		if err := removeFinalizerForObject(&list.Items[i], widgetFinalizer, c); err != nil {
			return err
		}
	}
	return nil
}

// StatusReconciler takes a merge patch of the Widget before it sets a
// condition, and hands both to a method that patches the status when
// Reconcile returns: the conditions list goes out whole.
type StatusReconciler struct {
	client.Client
}

func (r *StatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := client.MergeFrom(widget.DeepCopy())
	defer r.deferPatch(ctx, &widget, p) // want `^unconditional-patch: deferPatch of widget sends a merge patch from MergeFrom without a precondition, and the status\.conditions list of widget changed since the snapshot`
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Reconciled"})
	return ctrl.Result{}, nil
}

func (r *StatusReconciler) deferPatch(ctx context.Context, widget *widgetsv1.Widget, p client.Patch) {
	_ = r.Status().Patch(ctx, widget, p)
}

// LockedStatusReconciler hands the method a patch with the optimistic lock.
type LockedStatusReconciler struct {
	client.Client
}

func (r *LockedStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := client.MergeFromWithOptions(widget.DeepCopy(), client.MergeFromWithOptimisticLock{})
	defer r.deferPatch(ctx, &widget, p)
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Reconciled"})
	return ctrl.Result{}, nil
}

func (r *LockedStatusReconciler) deferPatch(ctx context.Context, widget *widgetsv1.Widget, p client.Patch) {
	_ = r.Status().Patch(ctx, widget, p)
}

// PatchWithReconciler builds the patch and hands it to a wrapper of another
// package before it adds the finalizer.
type PatchWithReconciler struct {
	client.Client
}

func (r *PatchWithReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := client.MergeFrom(widget.DeepCopy())
	controllerutil.AddFinalizer(&widget, widgetFinalizer)
	return ctrl.Result{}, kubeutil.PatchWith(ctx, r.Client, &widget, p) // want `^unconditional-patch: PatchWith of widget sends a merge patch from MergeFrom .*finalizers list`
}

// FluxReconciler uses fluxcd's serial patcher: it keeps a copy of the object
// made when the patcher is, and its Patch sends metadata and spec as a merge
// patch from that copy without a lock. The finalizer added in between
// replaces the whole list.
type FluxReconciler struct {
	client.Client
}

func (r *FluxReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	obj := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	patcher := patch.NewSerialPatcher(obj, r.Client)
	defer func() {
		if err := patcher.Patch(ctx, obj); err != nil { // want `^unconditional-patch: Patch of obj sends a merge patch from NewSerialPatcher without a precondition, and the finalizers list of obj changed since the snapshot`
			retErr = err
		}
	}()
	if !obj.DeletionTimestamp.IsZero() {
		controllerutil.RemoveFinalizer(obj, widgetFinalizer)
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(obj, widgetFinalizer) {
		controllerutil.AddFinalizer(obj, widgetFinalizer)
		return ctrl.Result{Requeue: true}, nil
	}
	return ctrl.Result{}, nil
}

// FluxDeletionReconciler only removes its finalizer, while the object is
// being deleted, before the serial patcher patches: not reported.
type FluxDeletionReconciler struct {
	client.Client
}

func (r *FluxDeletionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	patcher := patch.NewSerialPatcher(obj, r.Client)
	controllerutil.RemoveFinalizer(obj, widgetFinalizer)
	return ctrl.Result{}, patcher.Patch(ctx, obj)
}

// FluxStatusReconciler changes only the conditions, which fluxcd's patcher
// sends apart with an optimistic lock and retries: not reported.
type FluxStatusReconciler struct {
	client.Client
}

func (r *FluxStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	patcher := patch.NewSerialPatcher(obj, r.Client)
	meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Reconciled"})
	obj.Status.ObservedGeneration = obj.Generation
	return ctrl.Result{}, patcher.Patch(ctx, obj, patch.WithOwnedConditions{Conditions: []string{"Ready"}})
}

// KustomizeReconciler hands the object and the serial patcher to a helper of
// its own, called from a deferred closure: the finalizer added in Reconcile
// is reported at the call.
type KustomizeReconciler struct {
	client.Client
}

func (r *KustomizeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	obj := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	patcher := patch.NewSerialPatcher(obj, r.Client)
	defer func() {
		if err := r.finalizeStatus(ctx, obj, patcher); err != nil { // want `^unconditional-patch: finalizeStatus of obj sends a merge patch from NewSerialPatcher without a precondition, and the finalizers list of obj changed since the snapshot`
			retErr = err
		}
	}()
	if !controllerutil.ContainsFinalizer(obj, widgetFinalizer) {
		controllerutil.AddFinalizer(obj, widgetFinalizer)
		return ctrl.Result{Requeue: true}, nil
	}
	return ctrl.Result{}, nil
}

func (r *KustomizeReconciler) finalizeStatus(ctx context.Context, obj *widgetsv1.Widget, patcher *patch.SerialPatcher) error {
	obj.Status.ObservedGeneration = obj.Generation
	return r.patch(ctx, obj, patcher)
}

func (r *KustomizeReconciler) patch(ctx context.Context, obj *widgetsv1.Widget, patcher *patch.SerialPatcher) error {
	return patcher.Patch(ctx, obj, patch.WithOwnedConditions{Conditions: []string{"Ready"}}, patch.WithForceOverwriteConditions{})
}

// OwnPatcherReconciler uses the package's own patcher type of another
// package: the constructor's copy is the snapshot.
type OwnPatcherReconciler struct {
	client.Client
}

func (r *OwnPatcherReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := kubeutil.NewPatcher(obj, r.Client)
	controllerutil.AddFinalizer(obj, widgetFinalizer)
	return ctrl.Result{}, p.Patch(ctx, obj) // want `^unconditional-patch: Patch of obj sends a merge patch from NewPatcher without a precondition, and the finalizers list of obj changed since the snapshot`
}

// ScopeReconciler works through a scope, as cluster-api providers do: the
// scope's constructor takes the snapshot, its Close (deferred) patches the
// Widget from it without a lock. The finalizer added in between replaces the
// whole list: reported at Close.
type ScopeReconciler struct {
	client.Client
}

func (r *ScopeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	scope, err := kubeutil.NewScope(kubeutil.ScopeParams{Client: r.Client, Widget: widget})
	if err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		if err := scope.Close(ctx); err != nil && retErr == nil { // want `^unconditional-patch: Close of scope.Widget sends a merge patch from NewScope without a precondition, and the finalizers list of scope.Widget changed since the snapshot`
			retErr = err
		}
	}()
	if !widget.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(widget, widgetFinalizer) {
		controllerutil.AddFinalizer(widget, widgetFinalizer)
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, nil
}

// ScopeDeletionReconciler only removes its finalizer, from a Widget being
// deleted, before the scope patches: a stale list is refused (422), not
// applied. Not reported.
type ScopeDeletionReconciler struct {
	client.Client
}

func (r *ScopeDeletionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	scope, err := kubeutil.NewScope(kubeutil.ScopeParams{Client: r.Client, Widget: widget})
	if err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		if err := scope.Close(ctx); err != nil && retErr == nil {
			retErr = err
		}
	}()
	if widget.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	controllerutil.RemoveFinalizer(widget, widgetFinalizer)
	return ctrl.Result{}, nil
}

// ScopeOwnerReconciler changes the owner the scope also keeps, which Close
// does not patch, and sets a label of the Widget to a constant: neither is
// a read-modify-write of what Close sends. Not reported.
type ScopeOwnerReconciler struct {
	client.Client
}

func (r *ScopeOwnerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	widget, owner := &widgetsv1.Widget{}, &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: widget.Spec.Image}, owner); err != nil {
		return ctrl.Result{}, err
	}
	scope, err := kubeutil.NewScope(kubeutil.ScopeParams{Client: r.Client, Owner: owner, Widget: widget})
	if err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		if err := scope.Close(ctx); err != nil && retErr == nil {
			retErr = err
		}
	}()
	controllerutil.AddFinalizer(scope.Owner, widgetFinalizer)
	if widget.Labels == nil {
		widget.Labels = map[string]string{}
	}
	widget.Labels["widgets.example.com/managed"] = "true"
	return ctrl.Result{}, nil
}

// RawPatcherReconciler patches through a patcher that sends its merge patch
// as raw bytes: the finalizer added since the snapshot replaces the whole
// list.
type RawPatcherReconciler struct {
	client.Client
}

func (r *RawPatcherReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := kubeutil.NewRawPatcher(obj, r.Client)
	controllerutil.AddFinalizer(obj, widgetFinalizer)
	return ctrl.Result{}, p.Patch(ctx, obj) // want `^unconditional-patch: Patch of obj sends a merge patch from NewRawPatcher without a precondition, and the finalizers list of obj changed since the snapshot`
}

// EarlyFinalizerReconciler adds its finalizer and patches it right away,
// returning before it defers the patch of everything else: the deferred
// patch never sends the finalizer change (reported once, at the first
// patch).
type EarlyFinalizerReconciler struct {
	client.Client
}

func (r *EarlyFinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	obj := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := kubeutil.NewPatcher(obj, r.Client)
	if !controllerutil.ContainsFinalizer(obj, widgetFinalizer) {
		controllerutil.AddFinalizer(obj, widgetFinalizer)
		if err := p.Patch(ctx, obj); err != nil { // want `^unconditional-patch: Patch of obj sends a merge patch from NewPatcher without a precondition, and the finalizers list of obj changed since the snapshot`
			return ctrl.Result{}, err
		}
		return ctrl.Result{Requeue: true}, nil
	}
	defer func() {
		if err := p.Patch(ctx, obj); err != nil && retErr == nil {
			retErr = err
		}
	}()
	obj.Status.ObservedGeneration = obj.Generation
	return ctrl.Result{}, nil
}
