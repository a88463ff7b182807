// want package:"has summaries"

// Package kubeutil holds the patch wrappers an operator keeps apart from its
// controllers: the snapshot and the changed object arrive as parameters.
package kubeutil

import (
	"bytes"
	"context"
	"errors"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
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

// ScopeParams is what NewScope is given, as the scopes of cluster-api
// providers are.
type ScopeParams struct {
	Client client.Client
	Owner  *widgetsv1.Widget
	Widget *widgetsv1.Widget
}

// Scope keeps the object a reconcile works on and a patcher made for it;
// Close patches the object (the ClusterScope and MachineScope of
// cluster-api providers).
type Scope struct {
	client  client.Client
	patcher *Patcher
	Owner   *widgetsv1.Widget
	Widget  *widgetsv1.Widget
}

// NewScope keeps the object, and a patcher whose snapshot is a copy of it.
func NewScope(params ScopeParams) (*Scope, error) { // want NewScope:"the constructor stores a copy of field Widget of parameter 0 in field patcher.before; the constructor keeps field Owner of parameter 0 in field Owner; the constructor keeps field Widget of parameter 0 in field Widget"
	if params.Widget == nil {
		return nil, errors.New("a Widget is required to make a scope")
	}
	p := NewPatcher(params.Widget, params.Client)
	return &Scope{client: params.Client, patcher: p, Owner: params.Owner, Widget: params.Widget}, nil
}

// PatchObject patches the Widget from the snapshot.
func (s *Scope) PatchObject(ctx context.Context) error { // want PatchObject:"writes field Widget of #0 with patch returning its error; sends a merge patch from field patcher.before of the receiver to its field Widget, without a lock"
	return s.patcher.Patch(ctx, s.Widget)
}

// Close patches what changed in the Widget since the scope was made.
func (s *Scope) Close(ctx context.Context) error { // want Close:"writes field Widget of #0 with patch returning its error; sends a merge patch from field patcher.before of the receiver to its field Widget, without a lock"
	return s.PatchObject(ctx)
}

// RawPatcher keeps a snapshot like Patcher, but sends the bytes of the merge
// patch as a RawPatch, after checking for an empty one (as cluster-api's
// patch helper does since v1.11).
type RawPatcher struct {
	c      client.Client
	before client.Object
}

// NewRawPatcher stores a copy of obj.
func NewRawPatcher(obj client.Object, c client.Client) *RawPatcher { // want NewRawPatcher:"the constructor stores a copy of parameter 0 in field before"
	return &RawPatcher{c: c, before: obj.DeepCopyObject().(client.Object)}
}

// Patch computes the merge patch from the snapshot to obj and sends it.
func (p *RawPatcher) Patch(ctx context.Context, obj client.Object) error { // want Patch:"reads into #2; writes #2 with patch returning its error; Patch sends a merge patch from field before of the receiver to parameter 2, without a lock"
	data, err := client.MergeFrom(p.before).Data(obj)
	if err != nil {
		return err
	}
	if bytes.Equal(data, []byte("{}")) {
		return nil
	}
	return p.c.Patch(ctx, obj, client.RawPatch(types.MergePatchType, data))
}
