package unconditionalpatch

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	widgetsv1ac "lostupdate.test/crd/applyconfigurations/widgets/v1"
	"lostupdate.test/crd/clientset/versioned"
)

// A port allocator adds a port to the list it read and merge-patches the
// Widget: the atomic list replaces ports another allocator added meanwhile.
func badCRDMergePatchPortsFromRead(ctx context.Context, wc versioned.Interface, ns, name string, port int32) error {
	widget, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if slices.Contains(widget.Spec.Ports, port) {
		return nil
	}
	data, err := json.Marshal(map[string]interface{}{
		"spec": map[string]interface{}{"ports": append(widget.Spec.Ports, port)},
	})
	if err != nil {
		return err
	}
	_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// A health checker flips the status of a condition it found by position in
// the status it read, through the status subresource.
func badCRDConditionByIndex(ctx context.Context, wc versioned.Interface, ns, name string) error {
	widget, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	i := slices.IndexFunc(widget.Status.Conditions, func(c metav1.Condition) bool { return c.Type == "Ready" })
	if i < 0 {
		return nil
	}
	patch := fmt.Sprintf(`[{"op":"replace","path":"/status/conditions/%d/status","value":"False"}]`, i)
	_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}, "status") // want "^unconditional-patch: "
	return err
}

// Annotating a Widget with the operator version that handled it: a constant
// merge patch.
func okCRDVersionAnnotation(ctx context.Context, wc versioned.Interface, ns, name, version string) error {
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"widgets.example.com/operator-version":%q}}}`, version)
	_, err := wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// The port allocator done with Server-Side Apply through the generated
// clientset.
func okCRDApplyPorts(ctx context.Context, wc versioned.Interface, ns, name string, ports []int32) error {
	ac := widgetsv1ac.Widget(name, ns).WithSpec(widgetsv1ac.WidgetSpec().WithPorts(ports...))
	_, err := wc.WidgetsV1().Widgets(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager, Force: true})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badCRDConditionByIndex, badCRDMergePatchPortsFromRead}

// The functions above are run by the program's workers.
var _ = []any{okCRDApplyPorts, okCRDVersionAnnotation}
