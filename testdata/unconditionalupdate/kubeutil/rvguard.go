package kubeutil

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CreateOrUpdate updates obj when it carries a resourceVersion (the caller
// read it); an object without one is created, read back, and the copy read
// back is what it updates: a built object is never PUT as built.
func CreateOrUpdate(ctx context.Context, c client.Client, obj client.Object) error {
	newObj := obj.DeepCopyObject().(client.Object)
	if len(obj.GetResourceVersion()) == 0 {
		var err error
		if newObj, err = createAndGet(ctx, c, obj); err != nil {
			return err
		}
	}
	return labelAndUpdate(ctx, c, newObj)
}

func createAndGet(ctx context.Context, c client.Client, obj client.Object) (client.Object, error) {
	if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	fresh := obj.DeepCopyObject().(client.Object)
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), fresh); err != nil {
		return nil, err
	}
	return fresh, nil
}

func labelAndUpdate(ctx context.Context, c client.Client, obj client.Object) error {
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["app.kubernetes.io/managed-by"] = "example-operator"
	obj.SetLabels(labels)
	return c.Update(ctx, obj)
}

// SaveOrUpdate is the same test the other way round, with the write in the
// branch where the resourceVersion is set.
func SaveOrUpdate(ctx context.Context, c client.Client, obj client.Object) error {
	if obj.GetResourceVersion() != "" {
		return c.Update(ctx, obj)
	}
	return c.Create(ctx, obj)
}

// UpdateAfterCheck tests the resourceVersion only to log it: the object is
// written as passed whatever it carries.
func UpdateAfterCheck(ctx context.Context, c client.Client, obj client.Object) error {
	if obj.GetResourceVersion() == "" {
		obj.SetAnnotations(map[string]string{"example.com/created-by": "example-operator"})
	}
	return c.Update(ctx, obj)
}

// CreateOrLabel tests the resourceVersion too, but on AlreadyExists its
// create hands back the object it was given: a built object is PUT as built.
func CreateOrLabel(ctx context.Context, c client.Client, obj client.Object) error {
	newObj := obj.DeepCopyObject().(client.Object)
	if len(obj.GetResourceVersion()) == 0 {
		var err error
		if newObj, err = createOrKeep(ctx, c, obj); err != nil {
			return err
		}
	}
	return labelAndUpdate(ctx, c, newObj)
}

func createOrKeep(ctx context.Context, c client.Client, obj client.Object) (client.Object, error) {
	if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	return obj, nil
}
