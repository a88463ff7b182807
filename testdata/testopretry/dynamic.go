package testopretry

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

// unstructuredString reads a string field of an unstructured object.
func unstructuredString(obj map[string]interface{}, fields ...string) (string, bool, error) {
	return unstructured.NestedString(obj, fields...)
}

var leaseGVR = schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}

// A home-grown lock takes over a Lease only if the holder it read is still
// the holder (a test op), inside RetryOnConflict: a new holder fails the test
// with 422 and the takeover gives up at once.
func badDynamicLeaseTakeoverInRetry(ctx context.Context, dc dynamic.Interface, ns, name, identity string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		lease, err := dc.Resource(leaseGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		holder, _, _ := unstructuredString(lease.Object, "spec", "holderIdentity")
		patch := fmt.Sprintf(`[{"op":"test","path":"/spec/holderIdentity","value":%q},{"op":"replace","path":"/spec/holderIdentity","value":%q}]`, holder, identity)
		_, err = dc.Resource(leaseGVR).Namespace(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// The takeover without a retry: losing the race is the answer.
func okDynamicLeaseTakeoverOnce(ctx context.Context, dc dynamic.Interface, ns, name, identity string) error {
	lease, err := dc.Resource(leaseGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	holder, _, _ := unstructuredString(lease.Object, "spec", "holderIdentity")
	patch := fmt.Sprintf(`[{"op":"test","path":"/spec/holderIdentity","value":%q},{"op":"replace","path":"/spec/holderIdentity","value":%q}]`, holder, identity)
	_, err = dc.Resource(leaseGVR).Namespace(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badDynamicLeaseTakeoverInRetry}

// The functions above are run by the program's workers.
var _ = []any{okDynamicLeaseTakeoverOnce}
