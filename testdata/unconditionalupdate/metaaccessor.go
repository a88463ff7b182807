package unconditionalupdate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// createOrUpdateObject is an operator's generic upsert: it reads a copy of
// the object, and updates the object with the copy's resourceVersion,
// reached through metav1.ObjectMetaAccessor as any client.Object allows.
func createOrUpdateObject(ctx context.Context, c client.Client, o client.Object) error {
	current := o.DeepCopyObject().(client.Object)
	err := c.Get(ctx, client.ObjectKeyFromObject(o), current)
	if apierrors.IsNotFound(err) {
		return c.Create(ctx, o)
	} else if err == nil {
		resourceVersion := current.(metav1.ObjectMetaAccessor).GetObjectMeta().GetResourceVersion()
		o.(metav1.ObjectMetaAccessor).GetObjectMeta().SetResourceVersion(resourceVersion)
		return c.Update(ctx, o)
	}
	return err
}

// A Widget built from the spec goes through the upsert, which copies the
// version it read into it: a 409 protects the Update, and the API server
// accepts it.
func okWidgetUpsertThroughMetaAccessor(ctx context.Context, c client.Client, ns, name string, size int32) error {
	w := &widgetsv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       widgetsv1.WidgetSpec{Replicas: &size},
	}
	return createOrUpdateObject(ctx, c, w)
}

// The control: a Secret read, then its resourceVersion cleared through the
// method ObjectMeta promotes before the Update, to copy it elsewhere.
func badSecretCopyClearedThroughMetaAccessor(ctx context.Context, c client.Client, key client.ObjectKey, ns string) error {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return err
	}
	secret.Namespace = ns
	secret.GetObjectMeta().SetResourceVersion("")
	return c.Update(ctx, &secret) // want "^unconditional-update: .*secret.*cleared"
}

// The functions above are run by the controller's workers.
var _ = []any{badSecretCopyClearedThroughMetaAccessor}

// The functions above are run by the program's workers.
var _ = []any{okWidgetUpsertThroughMetaAccessor}
