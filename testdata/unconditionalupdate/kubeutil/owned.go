package kubeutil

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// UpdateOwned copies the resourceVersion of old, when given, onto obj and
// PUTs obj: an owned-object helper.
func UpdateOwned(ctx context.Context, c client.Client, old, obj client.Object) error {
	if old != nil {
		obj.SetResourceVersion(old.GetResourceVersion())
	}
	return c.Update(ctx, obj)
}

// UpdateIfOwned updates obj through UpdateOwned when old is owned (or not
// given).
func UpdateIfOwned(ctx context.Context, c client.Client, old, obj client.Object) error {
	if old != nil && len(old.GetOwnerReferences()) == 0 {
		return nil
	}
	return UpdateOwned(ctx, c, old, obj)
}
