package staleread

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

var (
	issuerGVR  = schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "issuers"}
	backupGVR  = schema.GroupVersionResource{Group: "backup.example.com", Version: "v1", Resource: "backups"}
	gatewayGVR = schema.GroupVersionResource{Group: "gateway.networking.k8s.io", Version: "v1", Resource: "gateways"}
)

// A generic controller reads a CR from the watch cache and PUTs it back after editing a nested field.
func badDynamicCacheGetThenUpdate(ctx context.Context, dc dynamic.Interface, ns, name, server string) error {
	issuer, err := dc.Resource(issuerGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(issuer.Object, server, "spec", "acme", "server"); err != nil {
		return err
	}
	_, err = dc.Resource(issuerGVR).Namespace(ns).Update(ctx, issuer, metav1.UpdateOptions{})
	return err
}

// Status of every cached Backup CR is rewritten from a watch-cache list.
func badDynamicCacheListThenUpdateStatus(ctx context.Context, dc dynamic.Interface, ns string) error {
	backups, err := dc.Resource(backupGVR).Namespace(ns).List(ctx, metav1.ListOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	for _, b := range backups.Items {
		phase, _, _ := unstructured.NestedString(b.Object, "status", "phase")
		if phase != "" {
			continue
		}
		if err := unstructured.SetNestedField(b.Object, "Pending", "status", "phase"); err != nil {
			return err
		}
		if _, err := dc.Resource(backupGVR).Namespace(ns).UpdateStatus(ctx, &b, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// A JSON patch whose value is computed from a cached read: the listener list may have changed since the cache saw it.
func badDynamicCacheGetThenPatch(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	gw, err := dc.Resource(gatewayGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	listeners, _, err := unstructured.NestedSlice(gw.Object, "spec", "listeners")
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`[{"op":"replace","path":"/metadata/annotations/example.com~1listeners","value":"%d"}]`, len(listeners))
	_, err = dc.Resource(gatewayGVR).Namespace(ns).Patch(ctx, gw.GetName(), types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^unconditional-patch: Patch sends a JSON patch"
	return err
}

// Counting CRs from the watch cache for a status page writes nothing.
func okDynamicCacheListCount(ctx context.Context, dc dynamic.Interface) (map[string]int, error) {
	backups, err := dc.Resource(backupGVR).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return nil, err
	}
	byPhase := map[string]int{}
	for _, b := range backups.Items {
		phase, _, _ := unstructured.NestedString(b.Object, "status", "phase")
		byPhase[phase]++
	}
	return byPhase, nil
}

// Dynamic conflict retry that re-reads from the API server on each attempt.
func okDynamicFreshGetInsideRetry(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		b, err := dc.Resource(backupGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(b.Object, true, "spec", "suspend"); err != nil {
			return err
		}
		_, err = dc.Resource(backupGVR).Namespace(ns).Update(ctx, b, metav1.UpdateOptions{})
		return err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badDynamicCacheGetThenPatch, badDynamicCacheGetThenUpdate, badDynamicCacheListThenUpdateStatus}

// The functions above are run by the program's workers.
var _ = []any{okDynamicCacheListCount, okDynamicFreshGetInsideRetry}
