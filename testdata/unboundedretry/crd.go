package unboundedretry

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"lostupdate.test/crd/clientset/versioned"
)

// A Widget status writer using the generated clientset spins on conflicts.
func badCRDUpdateStatusForever(ctx context.Context, wc versioned.Interface, ns, name string, ready int32) error {
	for {
		widget, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		widget.Status.ReadyReplicas = ready
		if _, err = wc.WidgetsV1().Widgets(ns).UpdateStatus(ctx, widget, metav1.UpdateOptions{}); apierrors.IsConflict(err) { // want "^unbounded-retry: "
			continue
		}
		return err
	}
}

// The same status write inside RetryOnConflict.
func okCRDUpdateStatusRetryOnConflict(ctx context.Context, wc versioned.Interface, ns, name string, ready int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		widget, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		widget.Status.ReadyReplicas = ready
		_, err = wc.WidgetsV1().Widgets(ns).UpdateStatus(ctx, widget, metav1.UpdateOptions{})
		return err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badCRDUpdateStatusForever}

// The functions above are run by the program's workers.
var _ = []any{okCRDUpdateStatusRetryOnConflict}
