package testopretry

import (
	"context"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	"lostupdate.test/crd/clientset/versioned"
)

// A port allocator appends a port after testing that the port list is what
// it read, inside RetryOnConflict with the generated clientset.
func badCRDTestPortsInRetry(ctx context.Context, wc versioned.Interface, ns, name string, port int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		widget, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if slices.Contains(widget.Spec.Ports, port) {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"add","path":"/spec/ports/-","value":%d}]`, widget.ResourceVersion, port)
		_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// The allocator fixed: it retries on a failed test as well, re-reading the
// Widget each time.
func okCRDTestPortsRetriedOnInvalid(ctx context.Context, wc versioned.Interface, ns, name string, port int32) error {
	return retry.OnError(retry.DefaultRetry, isConflictOrInvalid, func() error {
		widget, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if slices.Contains(widget.Spec.Ports, port) {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"add","path":"/spec/ports/-","value":%d}]`, widget.ResourceVersion, port)
		_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
}

// A guarded status patch retried by retry.OnError on failed tests only.
func okCRDTestOpRetriedOnInvalidOnly(ctx context.Context, wc versioned.Interface, ns, name string) error {
	return retry.OnError(retry.DefaultBackoff, apierrors.IsInvalid, func() error {
		widget, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"replace","path":"/status/observedGeneration","value":%d}]`, widget.ResourceVersion, widget.Generation)
		_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}, "status")
		return err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badCRDTestPortsInRetry}

// The functions above are run by the program's workers.
var _ = []any{okCRDTestOpRetriedOnInvalidOnly, okCRDTestPortsRetriedOnInvalid}
