package mutations

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The ctrl package re-exports controllerutil's CreateOrPatch and
// CreateOrUpdate as variables: a call of one is a call of the function.

// CreateOrPatch reads the object, runs the mutate function and sends a
// plain merge patch of what it changed: a finalizer added there replaces
// the list.
func createOrPatchFinalizer(ctx context.Context, c client.Client, ns, name string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	_, err := ctrl.CreateOrPatch(ctx, c, cm, func() error { // want "^unconditional-patch: CreateOrPatch .*finalizers list"
		cm.Finalizers = append(cm.Finalizers, finalizer)
		return nil
	})
	return err
}

// A label: a map, merged key by key.
func okCreateOrPatchLabel(ctx context.Context, c client.Client, ns, name string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	_, err := ctrl.CreateOrPatch(ctx, c, cm, func() error {
		if cm.Labels == nil {
			cm.Labels = map[string]string{}
		}
		cm.Labels["widgets.example.com/managed"] = "true"
		return nil
	})
	return err
}

// CreateOrUpdate updates the object it read: the update is conditional.
func okCreateOrUpdateFinalizer(ctx context.Context, c client.Client, ns, name string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	_, err := ctrl.CreateOrUpdate(ctx, c, cm, func() error {
		cm.Finalizers = append(cm.Finalizers, finalizer)
		return nil
	})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{createOrPatchFinalizer}

// The functions above are run by the program's workers.
var _ = []any{okCreateOrPatchLabel, okCreateOrUpdateFinalizer}
