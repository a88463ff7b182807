// Package strictpatch is analysed with -strict-patch: every patch that is not
// Server-Side Apply and carries no precondition is reported, blind ones too.
package strictpatch

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A blind label patch: not a read-modify-write, but without a precondition.
func labelNode(ctx context.Context, cs kubernetes.Interface, name string) error {
	_, err := cs.CoreV1().Nodes().Patch(ctx, name, types.MergePatchType, []byte(`{"metadata":{"labels":{"example.com/drained":"true"}}}`), metav1.PatchOptions{}) // want "^unconditional-patch: .*strict mode"
	return err
}

// A MergeFrom that only sets an annotation.
func annotate(ctx context.Context, c client.Client, cm *corev1.ConfigMap) error {
	patch := client.MergeFrom(cm.DeepCopy())
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/seen"] = "true"
	return c.Patch(ctx, cm, patch) // want "^unconditional-patch: .*strict mode"
}

// With the optimistic lock there is a precondition.
func annotateLocked(ctx context.Context, c client.Client, cm *corev1.ConfigMap) error {
	patch := client.MergeFromWithOptions(cm.DeepCopy(), client.MergeFromWithOptimisticLock{})
	cm.Annotations["example.com/seen"] = "true"
	return c.Patch(ctx, cm, patch)
}

// A JSON patch guarded by a test op has a precondition.
func guarded(ctx context.Context, cs kubernetes.Interface, name, rv string) error {
	data := []byte(`[{"op":"test","path":"/metadata/resourceVersion","value":"` + rv + `"},{"op":"add","path":"/metadata/labels/x","value":"y"}]`)
	_, err := cs.CoreV1().Nodes().Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// Server-Side Apply is never reported by this rule.
func apply(ctx context.Context, c client.Client, cm *corev1.ConfigMap) error {
	return c.Patch(ctx, cm, client.Apply, client.FieldOwner("example"))
}

// A body the analysis cannot see is not reported, even in strict mode.
func opaque(ctx context.Context, cs kubernetes.Interface, name string, body []byte) error {
	_, err := cs.CoreV1().Nodes().Patch(ctx, name, types.MergePatchType, body, metav1.PatchOptions{})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{annotate, labelNode}

// The functions above are run by the program's workers.
var _ = []any{annotateLocked, apply, guarded, opaque}
