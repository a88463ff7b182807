package staleretry

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

var certificateGVR = schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "certificates"}

// A generic labeller built on the dynamic client reads the object once and
// retries only the write of that unstructured object.
func badDynamicLabelReadBeforeRetry(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, ns, name, key, value string) error {
	obj, err := dc.Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		labels := obj.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[key] = value
		obj.SetLabels(labels)
		_, err := dc.Resource(gvr).Namespace(ns).Update(ctx, obj, metav1.UpdateOptions{}) // want "^stale-retry: .*obj"
		return err
	})
}

// A status writer for a custom resource sets a nested status field and
// retries UpdateStatus of the object it fetched before the retry.
func badDynamicStatusReadBeforeRetry(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	cert, err := dc.Resource(certificateGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.OnError(retry.DefaultRetry, apierrors.IsConflict, func() error {
		if err := unstructured.SetNestedField(cert.Object, "Issuing", "status", "phase"); err != nil {
			return err
		}
		_, err := dc.Resource(certificateGVR).Namespace(ns).UpdateStatus(ctx, cert, metav1.UpdateOptions{}) // want "^stale-retry: .*cert"
		return err
	})
}

// The dynamic-client version of the documented retry: Get inside.
func okDynamicGetInsideRetry(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cert, err := dc.Resource(certificateGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(cert.Object, true, "spec", "isCA"); err != nil {
			return err
		}
		_, err = dc.Resource(certificateGVR).Namespace(ns).Update(ctx, cert, metav1.UpdateOptions{})
		return err
	})
}

// The first attempt writes the object the caller passed; when it conflicts,
// the closure fetches the latest object before returning the conflict, so the
// next attempt writes the fresh one.
func okDynamicRefreshAfterConflict(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, obj *unstructured.Unstructured, finalizer string) error {
	res := dc.Resource(gvr).Namespace(obj.GetNamespace())
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj.SetFinalizers(removeString(obj.GetFinalizers(), finalizer))
		_, err := res.Update(ctx, obj, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			latest, getErr := res.Get(ctx, obj.GetName(), metav1.GetOptions{})
			if getErr != nil {
				return getErr
			}
			obj = latest
		}
		return err
	})
}

func removeString(list []string, s string) []string {
	out := make([]string, 0, len(list))
	for _, item := range list {
		if item != s {
			out = append(out, item)
		}
	}
	return out
}

// The functions above are run by the controller's workers.
var _ = []any{badDynamicLabelReadBeforeRetry, badDynamicStatusReadBeforeRetry}

// The functions above are run by the program's workers.
var _ = []any{okDynamicGetInsideRetry, okDynamicRefreshAfterConflict}
