// Package patchutil holds the object helpers an operator keeps next to its
// controllers: finalizer and label edits, and patch bodies.
package patchutil

import (
	"context"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// EnsureFinalizer adds f to obj's finalizers if it is missing and reports
// whether it changed obj.
func EnsureFinalizer(obj client.Object, f string) bool {
	if controllerutil.ContainsFinalizer(obj, f) {
		return false
	}
	return controllerutil.AddFinalizer(obj, f)
}

// DropFinalizer removes f from obj's finalizer list.
func DropFinalizer(obj metav1.Object, f string) {
	kept := make([]string, 0, len(obj.GetFinalizers()))
	for _, existing := range obj.GetFinalizers() {
		if existing != f {
			kept = append(kept, existing)
		}
	}
	obj.SetFinalizers(kept)
}

// SetLabel sets one label on obj.
func SetLabel(obj metav1.Object, key, value string) {
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[key] = value
	obj.SetLabels(labels)
}

// LabelPatch is a JSON merge patch that sets one label.
func LabelPatch(key, value string) []byte {
	return fmt.Appendf(nil, `{"metadata":{"labels":{%q:%q}}}`, key, value)
}

// RemoveFinalizerOp is a JSON patch that removes f from obj's finalizers, by
// its position in the list obj carries. ok is false when f is not there.
func RemoveFinalizerOp(obj metav1.Object, f string) (patch []byte, ok bool) {
	i := slices.Index(obj.GetFinalizers(), f)
	if i < 0 {
		return nil, false
	}
	return fmt.Appendf(nil, `[{"op":"remove","path":"/metadata/finalizers/%d"}]`, i), true
}

// PatchConfigMap sends patch, a JSON merge patch, to the named ConfigMap.
func PatchConfigMap(ctx context.Context, cs kubernetes.Interface, ns, name string, patch []byte) error {
	_, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// Next returns the count after n; it takes a context to log with.
func Next(ctx context.Context, n int32) int32 {
	_ = ctx
	return n + 1
}

// RemoveString returns the list without s.
func RemoveString(list []string, s string) (result []string) {
	for _, item := range list {
		if item == s {
			continue
		}
		result = append(result, item)
	}
	return
}
