package patchbodies

import (
	"context"
	"encoding/json"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const (
	zoneLabels = "example.com/zone-labels"
	zone       = "example.com/zone"
)

// The zone annotation is computed from another annotation (the node labels
// to look at) and the node: a desired-state write of one key, which a
// strategic merge patch merges into the map without touching the others.
func annotateZone(ctx context.Context, c client.Client, pod *corev1.Pod, node *corev1.Node) error {
	var parts []string
	for _, l := range strings.Split(pod.Annotations[zoneLabels], ",") {
		parts = append(parts, node.Labels[l])
	}
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{zone: strings.Join(parts, "_")}}})
	if err != nil {
		return err
	}
	return c.Patch(ctx, pod, client.RawPatch(types.StrategicMergePatchType, body))
}

// The value is the one it replaces with one more part: a concurrent change
// to it is lost.
func appendZone(ctx context.Context, c client.Client, pod *corev1.Pod, node *corev1.Node) error {
	value := pod.Annotations[zone] + "," + node.Labels[corev1.LabelTopologyZone]
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{zone: value}}})
	if err != nil {
		return err
	}
	return c.Patch(ctx, pod, client.RawPatch(types.StrategicMergePatchType, body)) // want `^unconditional-patch: Patch of pod sends a strategic merge patch without a precondition, and its body sets metadata\.annotations\.example\.com/zone to a value computed from the object read earlier`
}

// The functions above are run by the controller's workers.
var _ = []any{annotateZone, appendZone}
