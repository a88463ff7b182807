// Package dynamic holds the shapes of client-go's dynamic client before
// v0.18: Get(name, opts, subresources...), Update(obj, opts,
// subresources...), without a context.
package dynamic

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

// The object read is written back: conditional.
func okGetThenUpdate(dc dynamic.Interface, ns, name string) error {
	u, err := dc.Resource(widgets).Namespace(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(u.Object, int64(3), "spec", "replicas"); err != nil {
		return err
	}
	_, err = dc.Resource(widgets).Namespace(ns).Update(u, metav1.UpdateOptions{})
	return err
}

// A Widget built from a map and PUT over the live one.
func badUpdateOfBuiltWidget(dc dynamic.Interface, ns, name string) error {
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]interface{}{"name": name, "namespace": ns},
		"spec":       map[string]interface{}{"replicas": int64(3)},
	}}
	_, err := dc.Resource(widgets).Namespace(ns).Update(u, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// UpdateStatus of a built Widget.
func badUpdateStatusOfBuiltWidget(dc dynamic.Interface, ns, name string) error {
	u := &unstructured.Unstructured{}
	u.SetName(name)
	u.SetNamespace(ns)
	if err := unstructured.SetNestedField(u.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	_, err := dc.Resource(widgets).Namespace(ns).UpdateStatus(u, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// A JSON patch that replaces the first element of a list read before,
// without a test op: a concurrent change of the list is overwritten.
func badIndexedJSONPatch(dc dynamic.Interface, ns, name, host string) error {
	patch := fmt.Sprintf(`[{"op":"replace","path":"/spec/hosts/0","value":%q}]`, host)
	_, err := dc.Resource(widgets).Namespace(ns).Patch(name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// The same patch guarded by a test op of the value it replaces.
func okIndexedJSONPatchWithTest(dc dynamic.Interface, ns, name, old, host string) error {
	patch := fmt.Sprintf(`[{"op":"test","path":"/spec/hosts/0","value":%q},{"op":"replace","path":"/spec/hosts/0","value":%q}]`, old, host)
	_, err := dc.Resource(widgets).Namespace(ns).Patch(name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// The functions above are run by the controller's workers.
var _ = []interface{}{badIndexedJSONPatch, badUpdateOfBuiltWidget, badUpdateStatusOfBuiltWidget}

// The functions above are run by the program's workers.
var _ = []interface{}{okGetThenUpdate, okIndexedJSONPatchWithTest}
