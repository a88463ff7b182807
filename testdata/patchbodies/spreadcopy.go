package patchbodies

import (
	"context"
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

const protectFinalizer = "example.com/protect"

// The finalizers read are copied (append to an empty list, the spread
// idiom) and one is added: the body sends the whole list read.
func protectConfigMap(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	finalizers := append(append([]string{}, cm.Finalizers...), protectFinalizer)
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": finalizers}})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, body, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a merge patch without a precondition, and its body sets metadata\.finalizers to a list computed from the object read earlier`
	return err
}

// A list of constants, appended to an empty one: a blind patch.
func protectConfigMapBlind(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	finalizers := append([]string{}, []string{protectFinalizer}...)
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": finalizers}})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, body, metav1.PatchOptions{})
	return err
}

// The functions above are run by the program's workers.
var _ = []any{protectConfigMap, protectConfigMapBlind}
