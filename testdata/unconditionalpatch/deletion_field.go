package unconditionalpatch

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// A context struct holds the object a reconcile is for, and its helpers
// reach it through the field. A helper that only removes a finalizer, and
// that every caller runs where the deletion timestamp of that field's
// object is set, removes it from an object being deleted.
type groupContext struct {
	client client.Client
	ctx    context.Context
	group  *widgetsv1.Widget
}

func (gc *groupContext) reconcileGroup() error {
	if gc.group.DeletionTimestamp != nil {
		return gc.finalizeGroup()
	}
	if err := gc.ensureGroupFinalizer(); err != nil {
		return err
	}
	return gc.ensureCleanupFinalizer()
}

// finalizeGroup tests nothing itself: its caller runs it only for a group
// being deleted.
func (gc *groupContext) finalizeGroup() error {
	if gc.ownerGone() {
		return gc.releaseGroup()
	}
	if err := gc.releaseCleanup(); err != nil {
		return err
	}
	return gc.releaseGroup()
}

// reconcileOrphan tests the deletion timestamp once, in a conjunction it
// keeps, and releases the group in a branch of the result.
func (gc *groupContext) reconcileOrphan() error {
	tearingDown := gc.group.DeletionTimestamp != nil && gc.ownerGone()
	if gc.group.Spec.Replicas == nil {
		if tearingDown {
			return gc.releaseGroup()
		}
		return nil
	}
	return nil
}

// reconcileAlive keeps the negation: alive is false only for a group
// being deleted.
func (gc *groupContext) reconcileAlive() error {
	alive := gc.group.DeletionTimestamp == nil || !gc.ownerGone()
	if !alive {
		return gc.releaseAlive()
	}
	return nil
}

func (gc *groupContext) releaseAlive() error {
	w := gc.group
	patch := client.MergeFrom(w.DeepCopy())
	controllerutil.RemoveFinalizer(w, "alive")
	return gc.client.Patch(gc.ctx, w, patch)
}

// The control: the conjunction's negation is false for a group not
// being deleted as well.
func (gc *groupContext) reconcileKept() error {
	kept := gc.group.DeletionTimestamp == nil && gc.ownerGone()
	if !kept {
		return gc.releaseKept()
	}
	return nil
}

func (gc *groupContext) releaseKept() error {
	w := gc.group
	patch := client.MergeFrom(w.DeepCopy())
	controllerutil.RemoveFinalizer(w, "kept")
	return gc.client.Patch(gc.ctx, w, patch) // want `^unconditional-patch: Patch of w .*finalizers`
}

var _ = []any{(*groupContext).reconcileAlive, (*groupContext).reconcileKept}

func (gc *groupContext) ownerGone() bool { return gc.group.Labels["owner"] == "" }

// releaseGroup removes the group's finalizer.
func (gc *groupContext) releaseGroup() error {
	w := gc.group
	if !controllerutil.ContainsFinalizer(w, widgetFinalizer) {
		return nil
	}
	patch := client.MergeFrom(w.DeepCopy())
	controllerutil.RemoveFinalizer(w, widgetFinalizer)
	return gc.client.Patch(gc.ctx, w, patch)
}

// The control: the same removal, with a caller whose test is a
// disjunction, which holds for a group not being deleted as well.
func (gc *groupContext) reconcileStale() error {
	stale := gc.group.DeletionTimestamp != nil || gc.ownerGone()
	if stale {
		return gc.releaseLease()
	}
	return nil
}

// releaseLease removes the lease finalizer from the group.
func (gc *groupContext) releaseLease() error {
	w := gc.group
	patch := client.MergeFrom(w.DeepCopy())
	controllerutil.RemoveFinalizer(w, widgetFinalizer)
	return gc.client.Patch(gc.ctx, w, patch) // want `^unconditional-patch: Patch of w .*finalizers`
}

// ensureGroupFinalizer adds the finalizer: a positive control whatever
// its caller tests.
func (gc *groupContext) ensureGroupFinalizer() error {
	w := gc.group
	patch := client.MergeFrom(w.DeepCopy())
	controllerutil.AddFinalizer(w, widgetFinalizer)
	return gc.client.Patch(gc.ctx, w, patch) // want `^unconditional-patch: Patch of w .*finalizers`
}

// releaseCleanup and ensureCleanupFinalizer load the group anew at each
// use: every load of the field is the one group.
func (gc *groupContext) releaseCleanup() error {
	if !controllerutil.ContainsFinalizer(gc.group, "cleanup") {
		return nil
	}
	patch := client.MergeFrom(gc.group.DeepCopy())
	controllerutil.RemoveFinalizer(gc.group, "cleanup")
	return gc.client.Patch(gc.ctx, gc.group, patch)
}

func (gc *groupContext) ensureCleanupFinalizer() error {
	if controllerutil.ContainsFinalizer(gc.group, "cleanup") {
		return nil
	}
	patch := client.MergeFrom(gc.group.DeepCopy())
	controllerutil.AddFinalizer(gc.group, "cleanup")
	return gc.client.Patch(gc.ctx, gc.group, patch) // want `^unconditional-patch: Patch of gc\.group .*finalizers`
}

// GroupReconciler builds the context for the group it read, and releases
// the group when it is being deleted.
type GroupReconciler struct {
	client.Client
}

func (r *GroupReconciler) reconcile(ctx context.Context, w *widgetsv1.Widget) error {
	gc := &groupContext{client: r.Client, ctx: ctx, group: w}
	if w.DeletionTimestamp != nil {
		return gc.releaseBuilt()
	}
	return nil
}

// releaseBuilt removes the finalizer from the group of the context its one
// caller builds.
func (gc *groupContext) releaseBuilt() error {
	w := gc.group
	patch := client.MergeFrom(w.DeepCopy())
	controllerutil.RemoveFinalizer(w, "built")
	return gc.client.Patch(gc.ctx, w, patch)
}

// The control: the context holds another object than the one tested.
func (r *GroupReconciler) reconcilePeer(ctx context.Context, w, peer *widgetsv1.Widget) error {
	gc := &groupContext{client: r.Client, ctx: ctx, group: peer}
	if w.DeletionTimestamp != nil {
		return gc.releasePeer()
	}
	return nil
}

func (gc *groupContext) releasePeer() error {
	w := gc.group
	patch := client.MergeFrom(w.DeepCopy())
	controllerutil.RemoveFinalizer(w, "peer")
	return gc.client.Patch(gc.ctx, w, patch) // want `^unconditional-patch: Patch of w .*finalizers`
}

var _ = []any{(*GroupReconciler).reconcile, (*GroupReconciler).reconcilePeer}

var _ = []any{(*groupContext).reconcileGroup, (*groupContext).reconcileOrphan, (*groupContext).reconcileStale}
