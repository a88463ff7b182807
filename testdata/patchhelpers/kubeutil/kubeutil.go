// want package:"has summaries"

// Package kubeutil holds the patch wrappers an operator keeps apart from its
// controllers: the snapshot and the changed object arrive as parameters.
package kubeutil

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PatchResource patches updated with a merge patch from original, without a
// lock.
func PatchResource(original, updated client.Object, c client.Client) error { // want PatchResource:"reads into #1; writes #1 with patch returning its error; patches parameter 1 with a merge patch from parameter 0, without a lock"
	return c.Patch(context.Background(), updated, client.MergeFrom(original))
}

// PatchResourceLocked patches updated from original with the optimistic lock:
// a concurrent change fails with 409 Conflict.
func PatchResourceLocked(original, updated client.Object, c client.Client) error { // want PatchResourceLocked:"reads into #1; writes #1 with patch returning its error"
	return c.Patch(context.Background(), updated, client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{}))
}

// PatchWith sends the patch its caller built.
func PatchWith(ctx context.Context, c client.Client, obj client.Object, p client.Patch) error { // want PatchWith:"reads into #2; writes #2 with patch returning its error; patches parameter 2 with a merge patch from a patch passed as parameter 3"
	return c.Patch(ctx, obj, p)
}

// Patcher keeps a snapshot of the object it is made for, and patches the
// object from it later.
type Patcher struct {
	c      client.Client
	before client.Object
}

// NewPatcher stores a copy of obj.
func NewPatcher(obj client.Object, c client.Client) *Patcher { // want NewPatcher:"the constructor stores a copy of parameter 0 in field before"
	return &Patcher{c: c, before: obj.DeepCopyObject().(client.Object)}
}

// Patch sends a merge patch from the snapshot to obj.
func (p *Patcher) Patch(ctx context.Context, obj client.Object) error { // want Patch:"reads into #2; writes #2 with patch returning its error; Patch sends a merge patch from field before of the receiver to parameter 2, without a lock"
	return p.c.Patch(ctx, obj, client.MergeFrom(p.before))
}
