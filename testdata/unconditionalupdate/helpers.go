package unconditionalupdate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"lostupdate.test/unconditionalupdate/kubeutil"
)

// kubeutil.ApplyConfigMap creates its argument and, when it exists, replaces it with a PUT: a create-or-replace of a built-in kind, which claims the whole object by design (its fact says "after creating it"). Not reported.
func okApplyConfigMapThroughHelper(ctx context.Context, cs kubernetes.Interface, ns string, routes map[string]string) error {
	return kubeutil.ApplyConfigMap(ctx, cs, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "routes", Namespace: ns, Labels: kubeutil.AppLabels("router")},
		Data:       routes,
	})
}

// kubeutil.EnsureConfigMap copies the live resourceVersion onto its argument before the PUT, so a literal argument is fine.
func okEnsureConfigMapThroughHelper(ctx context.Context, cs kubernetes.Interface, ns string, routes map[string]string) error {
	desired := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "routes", Namespace: ns, Labels: kubeutil.AppLabels("router")},
		Data:       routes,
	}
	return kubeutil.EnsureConfigMap(ctx, cs, desired)
}

// The functions above are run by the program's workers.
var _ = []any{okApplyConfigMapThroughHelper, okEnsureConfigMapThroughHelper}
