package patchbodies

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const disabledSuffix = "-disabled"

// DisableHPA points an HPA away from its workload while a release runs, by
// renaming its target. The body sends the target's apiVersion and kind back
// as they were read, and its name computed from the name read: the finding
// names the computed field.
func DisableHPA(ctx context.Context, c client.Client, key types.NamespacedName) error {
	hpa := &unstructured.Unstructured{}
	hpa.SetAPIVersion("autoscaling/v2")
	hpa.SetKind("HorizontalPodAutoscaler")
	if err := c.Get(ctx, key, hpa); err != nil {
		return err
	}
	ref, found, err := unstructured.NestedStringMap(hpa.Object, "spec", "scaleTargetRef")
	if err != nil || !found {
		return fmt.Errorf("no scaleTargetRef in %s", key)
	}
	version, kind, name := ref["apiVersion"], ref["kind"], ref["name"]
	if strings.HasSuffix(name, disabledSuffix) {
		return nil
	}
	body := fmt.Sprintf(`{"spec":{"scaleTargetRef":{"apiVersion":%q,"kind":%q,"name":%q}}}`, version, kind, name+disabledSuffix)
	return c.Patch(ctx, hpa, client.RawPatch(types.MergePatchType, []byte(body))) // want `^unconditional-patch: Patch of hpa sends a merge patch without a precondition, and its body sets spec\.scaleTargetRef\.name to a value computed from the object read earlier`
}
