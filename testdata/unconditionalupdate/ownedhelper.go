package unconditionalupdate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/unconditionalupdate/kubeutil"
)

// An owned-object helper that copies the resourceVersion of the object
// its caller read (old) onto the desired one before the PUT, when it is
// given one: the callers that give it an object read send a conditional
// PUT.
type ownedClient struct {
	client.Client
}

func (c *ownedClient) updateOwned(ctx context.Context, old, obj client.Object) error {
	if old != nil {
		obj.SetResourceVersion(old.GetResourceVersion())
	}
	obj.SetLabels(map[string]string{"managed-by": "example"})
	return c.Update(ctx, obj)
}

func (c *ownedClient) reconcileConfigMap(ctx context.Context, ns string, data map[string]string) error {
	var actual corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "settings"}, &actual); err != nil {
		return err
	}
	desired := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns}, Data: data}
	return c.updateOwned(ctx, &actual, desired)
}

// The control: a caller that gives it no object read.
func (c *ownedClient) replaceConfigMap(ctx context.Context, ns string, data map[string]string) error {
	desired := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns}, Data: data}
	return c.updateOwned(ctx, nil, desired) // want `^unconditional-update: updateOwned updates desired`
}

// A reconcile helper that reads the live object itself and hands it, with
// the desired one, to the helper of another package that copies its
// version: its callers' built objects are sent with the version it read.
func (c *ownedClient) reconcileSecret(ctx context.Context, desired *corev1.Secret) error {
	var actual corev1.Secret
	if err := c.Get(ctx, client.ObjectKeyFromObject(desired), &actual); err != nil {
		return err
	}
	return kubeutil.UpdateIfOwned(ctx, c.Client, &actual, desired)
}

func (c *ownedClient) syncSecret(ctx context.Context, ns string, data map[string][]byte) error {
	return c.reconcileSecret(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "creds", Namespace: ns}, Data: data})
}

// The control through the other package: no object read given.
func (c *ownedClient) replaceSecret(ctx context.Context, ns string, data map[string][]byte) error {
	desired := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "creds", Namespace: ns}, Data: data}
	return kubeutil.UpdateIfOwned(ctx, c.Client, nil, desired) // want `^unconditional-update: UpdateIfOwned updates desired`
}

var _ = []any{(*ownedClient).reconcileConfigMap, (*ownedClient).replaceConfigMap, (*ownedClient).syncSecret, (*ownedClient).replaceSecret}
