package unconditionalupdate

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// RouteProvider rewrites the custom network objects a rollout names: it
// reads each of them into a slice first, then updates them in a second loop.
type RouteProvider struct {
	client.Client
	refs []types.NamespacedName
}

// EnsureRoutes: each object is read into the slice, and the Get that fills
// it follows its literal on every path to the slice, so what the second
// loop updates carries the resourceVersion read. Not reported.
func (r *RouteProvider) EnsureRoutes(ctx context.Context) error {
	objs := make([]*unstructured.Unstructured, len(r.refs))
	for i, ref := range r.refs {
		obj := &unstructured.Unstructured{}
		obj.SetAPIVersion("networking.example.com/v1")
		obj.SetKind("Route")
		if err := r.Get(ctx, ref, obj); err != nil {
			return err
		}
		objs[i] = obj
	}
	for _, obj := range objs {
		if err := r.store(ctx, obj); err != nil {
			return err
		}
	}
	return nil
}

func (r *RouteProvider) store(ctx context.Context, obj *unstructured.Unstructured) error {
	ann := obj.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann["networking.example.com/original"] = "true"
	obj.SetAnnotations(ann)
	return r.Update(ctx, obj)
}

// ResetRoutes: the positive control, the objects in the slice are built
// and never read, so the Updates carry no resourceVersion.
func (r *RouteProvider) ResetRoutes(ctx context.Context) error {
	objs := make([]*unstructured.Unstructured, len(r.refs))
	for i, ref := range r.refs {
		obj := &unstructured.Unstructured{}
		obj.SetAPIVersion("networking.example.com/v1")
		obj.SetKind("Route")
		obj.SetNamespace(ref.Namespace)
		obj.SetName(ref.Name)
		objs[i] = obj
	}
	for _, obj := range objs {
		if err := r.Update(ctx, obj); err != nil { // want `^unconditional-update: Update writes obj, which is built without a resourceVersion`
			return err
		}
	}
	return nil
}

// ResetRoutesFilled: the positive control through a helper, which fills the
// slice with built objects: the elements are not all stored in sight, so
// the slice's own provenance (made, built) stands.
func (r *RouteProvider) ResetRoutesFilled(ctx context.Context) error {
	objs := make([]*unstructured.Unstructured, len(r.refs))
	r.fill(objs)
	for _, obj := range objs {
		if err := r.Update(ctx, obj); err != nil { // want `^unconditional-update: Update writes obj, which is built without a resourceVersion`
			return err
		}
	}
	return nil
}

func (r *RouteProvider) fill(objs []*unstructured.Unstructured) {
	for i, ref := range r.refs {
		obj := &unstructured.Unstructured{}
		obj.SetAPIVersion("networking.example.com/v1")
		obj.SetKind("Route")
		obj.SetNamespace(ref.Namespace)
		obj.SetName(ref.Name)
		objs[i] = obj
	}
}
