package unconditionalpatch

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// Patch bodies: a value computed from the value read at the same path is a
// read-modify-write; one looked up in the controller's desired state by
// another field of the object is a desired-state write.

// The desired replica count of a StatefulSet's tier, looked up by its label.
func replaceReplicasFromTier(ctx context.Context, cs kubernetes.Interface, ns, name string, tiers map[string]int32) error {
	sts, err := cs.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	ops := []map[string]interface{}{
		{"op": "replace", "path": "/spec/replicas", "value": tiers[sts.Labels["example.com/tier"]]},
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = cs.AppsV1().StatefulSets(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// The owner annotation set from the team named in the data, through the
// controller's table.
func annotateOwnerFromTeam(ctx context.Context, cs kubernetes.Interface, ns, name string, owners map[string]string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"example.com/owner":%q}}}`, owners[cm.Data["team"]])
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// The positive control: the owner annotation extended with the one read.
func annotateOwnerAppended(ctx context.Context, cs kubernetes.Interface, ns, name, owner string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"example.com/owner":%q}}}`, cm.Annotations["example.com/owner"]+","+owner)
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}) // want "^unconditional-patch: Patch sends a merge patch .*metadata.annotations.example.com/owner to a value computed from the object read earlier"
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{annotateOwnerAppended}

// The functions above are run by the program's workers.
var _ = []any{annotateOwnerFromTeam, replaceReplicasFromTier}
