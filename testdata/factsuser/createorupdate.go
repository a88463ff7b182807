package factsuser

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/facts"
)

// A helper of the package wraps another package's wrapper of
// controllerutil.CreateOrUpdate: the object it is given is read before it
// is written, two helpers down, so a built object with only a name is
// fine. Not reported.
func ensureSettings(ctx context.Context, c client.Client, cm *corev1.ConfigMap, mutate func() error) error {
	_, err := facts.CreateOrUpdateLabelled(ctx, c, cm, mutate)
	return err
}

func okEnsureBuiltSettings(ctx context.Context, c client.Client) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "ns"}}
	return ensureSettings(ctx, c, cm, func() error {
		cm.Data = map[string]string{"mode": "fast"}
		return nil
	})
}

// The function above is run by the controller's workers.
var _ = []any{okEnsureBuiltSettings}
