package unconditionalpatch

import (
	"context"
	"maps"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ControlPlane carries free-form configuration: a JSON object whose schema
// the operator does not own (an unstructured config, a map of any values).
type ControlPlane struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ControlPlaneSpec `json:"spec,omitempty"`
}

type ControlPlaneSpec struct {
	Config   *unstructured.Unstructured `json:"config,omitempty"`
	Settings map[string]any             `json:"settings,omitempty"`
}

func (c *ControlPlane) DeepCopyObject() runtime.Object {
	out := *c
	return &out
}

// withNetwork adds the cluster's network keys to a config that lacks them,
// and returns it.
func withNetwork(cfg *unstructured.Unstructured, podCIDR string) *unstructured.Unstructured {
	if cfg == nil {
		cfg = &unstructured.Unstructured{Object: map[string]any{}}
	}
	defaults := map[string]any{"spec": map[string]any{"network": map[string]any{"podCIDR": podCIDR}}}
	for k, v := range defaults {
		if _, ok := cfg.Object[k]; !ok {
			cfg.Object[k] = v
		}
	}
	return cfg
}

// The config is enriched with defaults and merge-patched: a merge patch
// recurses into a JSON object and sends only the keys added, so another
// writer's keys are kept.
func okMergePatchFreeFormConfig(ctx context.Context, c client.Client, key client.ObjectKey, podCIDR string) error {
	var cp ControlPlane
	if err := c.Get(ctx, key, &cp); err != nil {
		return err
	}
	orig := cp.DeepCopy()
	cp.Spec.Config = withNetwork(cp.Spec.Config, podCIDR)
	return c.Patch(ctx, &cp, client.MergeFrom(orig))
}

// DeepCopy is what controller-gen would generate, shallowly.
func (c *ControlPlane) DeepCopy() *ControlPlane {
	out := *c
	return &out
}

// The control: a counter kept in the settings, incremented from the value
// read and sent without a lock; a concurrent increment is lost.
func badMergePatchSettingsCounter(ctx context.Context, c client.Client, key client.ObjectKey) error {
	var cp ControlPlane
	if err := c.Get(ctx, key, &cp); err != nil {
		return err
	}
	orig := cp.DeepCopy()
	settings := maps.Clone(cp.Spec.Settings)
	n, _ := cp.Spec.Settings["restarts"].(int64)
	settings["restarts"] = n + 1
	cp.Spec.Settings = settings
	return c.Patch(ctx, &cp, client.MergeFrom(orig)) // want "^unconditional-patch: .*settings"
}

var _ = []any{okMergePatchFreeFormConfig, badMergePatchSettingsCounter}
