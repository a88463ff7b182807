package applyretry

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

var ingressRouteGVR = schema.GroupVersionResource{Group: "traefik.io", Version: "v1alpha1", Resource: "ingressroutes"}

// ingressRoute is the IngressRoute a tenant asks for.
func ingressRoute(ns, name, host string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "traefik.io/v1alpha1",
		"kind":       "IngressRoute",
		"metadata":   map[string]interface{}{"name": name, "namespace": ns},
		"spec": map[string]interface{}{
			"routes": []interface{}{map[string]interface{}{"match": "Host(`" + host + "`)", "kind": "Rule"}},
		},
	}}
}

// A GitOps syncer applies an unstructured manifest with the dynamic client
// inside RetryOnConflict.
func badDynamicApplyInRetryOnConflict(ctx context.Context, dc dynamic.Interface, ns, name, host string) error {
	obj := ingressRoute(ns, name, host)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := dc.Resource(ingressRouteGVR).Namespace(ns).Apply(ctx, name, obj, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// The syncer's older code path sends an apply patch through Patch in a
// hand-written loop that retries on conflict.
func badDynamicApplyPatchInLoop(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	for attempt := 1; attempt <= 4; attempt++ {
		_, err = dc.Resource(gvr).Namespace(obj.GetNamespace()).Patch(ctx, obj.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		if err == nil {
			return nil
		}
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt) * 250 * time.Millisecond)
	}
	return err
}

// A forced dynamic apply retried with retry.OnError on conflicts.
func okDynamicForcedApplyInRetry(ctx context.Context, dc dynamic.Interface, ns, name, host string) error {
	obj := ingressRoute(ns, name, host)
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		_, err := dc.Resource(ingressRouteGVR).Namespace(ns).Apply(ctx, name, obj, metav1.ApplyOptions{FieldManager: fieldManager, Force: true})
		return err
	})
}

// A dynamic apply without a retry; the caller sees the conflict.
func okDynamicApplyNoRetry(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return dc.Resource(gvr).Namespace(obj.GetNamespace()).Apply(ctx, obj.GetName(), obj, metav1.ApplyOptions{FieldManager: fieldManager})
}

// The functions above are run by the controller's workers.
var _ = []any{badDynamicApplyInRetryOnConflict, badDynamicApplyPatchInLoop}

// The functions above are run by the program's workers.
var _ = []any{okDynamicApplyNoRetry, okDynamicForcedApplyInRetry}
