package missingretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Each ConfigMap is written by a goroutine of a func literal given the
// element; the write's error goes back on a channel and the first one is
// returned. The write is judged in the literal, not at the go statement.
func stampAll(ctx context.Context, c client.Client, list *corev1.ConfigMapList) error {
	errs := make(chan error, len(list.Items))
	for i := range list.Items {
		go func(cm *corev1.ConfigMap) {
			cm.Labels = map[string]string{"example.com/stamped": "true"}
			errs <- c.Update(ctx, cm)
		}(&list.Items[i])
	}
	var first error
	for range list.Items {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// The same literal dropping the error: reported once, at its Update.
func stampAllDropped(ctx context.Context, c client.Client, list *corev1.ConfigMapList) {
	for i := range list.Items {
		go func(cm *corev1.ConfigMap) {
			cm.Labels = map[string]string{"example.com/stamped": "true"}
			_ = c.Update(ctx, cm) // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is dropped\)`
		}(&list.Items[i])
	}
}

// The functions above are run by the program's workers.
var _ = []any{stampAll, stampAllDropped}
