package unconditionalupdate

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var serviceMonitorGVK = schema.GroupVersionKind{Group: "monitoring.coreos.com", Version: "v1", Kind: "ServiceMonitor"}

func desiredServiceMonitor(ns string) *unstructured.Unstructured {
	sm := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "metrics", "namespace": ns},
		"spec":     map[string]any{"endpoints": []any{map[string]any{"port": "metrics"}}},
	}}
	sm.SetGroupVersionKind(serviceMonitorGVK)
	return sm
}

// currentServiceMonitor reads the ServiceMonitor sm names.
func currentServiceMonitor(ctx context.Context, c client.Client, sm *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	old := &unstructured.Unstructured{}
	old.SetGroupVersionKind(serviceMonitorGVK)
	err := c.Get(ctx, client.ObjectKeyFromObject(sm), old)
	return old, err
}

// The version read is copied into the built object's map by hand, as
// node-healthcheck-operator does: the Update is conditional.
func okUpdateServiceMonitorRawVersion(ctx context.Context, c client.Client, ns string) error {
	sm := desiredServiceMonitor(ns)
	old, err := currentServiceMonitor(ctx, c, sm)
	if err != nil {
		return err
	}
	sm.Object["metadata"].(map[string]any)["resourceVersion"] = old.GetResourceVersion()
	return c.Update(ctx, sm)
}

// Another metadata key set by hand is no precondition.
func badUpdateServiceMonitorRawLabels(ctx context.Context, c client.Client, ns string) error {
	sm := desiredServiceMonitor(ns)
	old, err := currentServiceMonitor(ctx, c, sm)
	if err != nil {
		return err
	}
	sm.Object["metadata"].(map[string]any)["labels"] = old.GetLabels()
	return c.Update(ctx, sm) // want "^unconditional-update: "
}

// The functions above are run by the controller's workers.
var _ = []any{badUpdateServiceMonitorRawLabels}

// The functions above are run by the program's workers.
var _ = []any{okUpdateServiceMonitorRawVersion}
