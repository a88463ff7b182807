package patchbuild // want package:"has summaries"

// The JSON patch bodies an operator sends for the objects it is given: the
// summaries its callers in other packages see say what each patch does.

import (
	"encoding/json"
	"fmt"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Op is one operation of an RFC 6902 JSON patch.
type Op struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// RemoveFinalizerPatch removes name from obj's finalizers, by the positions
// it has in the list obj carries.
func RemoveFinalizerPatch(obj metav1.Object, name string) ([]byte, error) { // want RemoveFinalizerPatch:"returns a JSON patch #0 that addresses /metadata/finalizers/{} by index"
	var ops []Op
	for i, f := range obj.GetFinalizers() {
		if f == name {
			ops = append(ops, Op{Op: "remove", Path: fmt.Sprintf("/metadata/finalizers/%d", i)})
		}
	}
	return json.Marshal(ops)
}

// RemoveFinalizerPatchTested is RemoveFinalizerPatch after a test of the
// resourceVersion obj carries: the server rejects it if obj changed.
func RemoveFinalizerPatchTested(obj metav1.Object, name string) ([]byte, error) { // want RemoveFinalizerPatchTested:"returns a JSON patch #0 that addresses /metadata/finalizers/{} by index, with a test op"
	ops := []Op{{Op: "test", Path: "/metadata/resourceVersion", Value: obj.GetResourceVersion()}}
	for i, f := range obj.GetFinalizers() {
		if f == name {
			ops = append(ops, Op{Op: "remove", Path: fmt.Sprintf("/metadata/finalizers/%d", i)})
		}
	}
	return json.Marshal(ops)
}

// KeepFinalizersPatch replaces obj's finalizers with those it carries but
// name.
func KeepFinalizersPatch(obj metav1.Object, name string) ([]byte, error) { // want KeepFinalizersPatch:"returns a JSON patch #0 from #0"
	kept := []string{}
	for _, f := range obj.GetFinalizers() {
		if f != name {
			kept = append(kept, f)
		}
	}
	return json.Marshal([]Op{{Op: "replace", Path: "/metadata/finalizers", Value: kept}})
}

// AddFinalizerPatch appends name to the finalizers of whatever object it is
// sent to.
func AddFinalizerPatch(name string) ([]byte, error) { // want AddFinalizerPatch:"returns a JSON patch #0 from no object"
	return json.Marshal([]Op{{Op: "add", Path: "/metadata/finalizers/-", Value: name}})
}

// JSONPatch is a JSON patch operation on managed fields.
type JSONPatch struct {
	Operation string                      `json:"op"`
	Path      string                      `json:"path"`
	Value     []metav1.ManagedFieldsEntry `json:"value,omitempty"`
}

const managedFieldsPath = "/metadata/managedFields"

// NewPatchReplace returns the operation that replaces path with value.
func NewPatchReplace(path string, value []metav1.ManagedFieldsEntry) JSONPatch {
	return JSONPatch{Operation: "replace", Path: path, Value: value}
}

// ReplaceFieldManagers renames the managers of obj's managed fields to name:
// the operations replace the whole managedFields list with the edited
// entries of the one obj carries.
func ReplaceFieldManagers(obj metav1.Object, managers []string, name string) ([]JSONPatch, error) { // want ReplaceFieldManagers:"returns a JSON patch #0 from #0"
	var patches []JSONPatch
	entries := make([]metav1.ManagedFieldsEntry, 0, len(obj.GetManagedFields()))
	edited := false
	for _, entry := range obj.GetManagedFields() {
		if slices.Contains(managers, entry.Manager) {
			entry.Manager = name
			edited = true
		}
		entries = append(entries, entry)
	}
	if !edited {
		return nil, nil
	}
	return append(patches, NewPatchReplace(managedFieldsPath, entries)), nil
}

// ReplaceFieldManagersTested is ReplaceFieldManagers after a test of the
// resourceVersion obj carries.
func ReplaceFieldManagersTested(obj metav1.Object, managers []string, name string) []Op { // want ReplaceFieldManagersTested:"returns a JSON patch #0 with a test op, from #0"
	entries := make([]metav1.ManagedFieldsEntry, 0, len(obj.GetManagedFields()))
	for _, entry := range obj.GetManagedFields() {
		if slices.Contains(managers, entry.Manager) {
			entry.Manager = name
		}
		entries = append(entries, entry)
	}
	return []Op{
		{Op: "test", Path: "/metadata/resourceVersion", Value: obj.GetResourceVersion()},
		{Op: "replace", Path: managedFieldsPath, Value: entries},
	}
}

// StopSidecarsPatch replaces the image of each running container of pod but
// the main one with a no-op image, by its position in the list pod carries.
func StopSidecarsPatch(pod *corev1.Pod, main, nopImage string) ([]byte, error) { // want StopSidecarsPatch:"returns a JSON patch #0 that addresses /spec/containers/{}/image by index"
	var ops []Op
	for _, s := range pod.Status.ContainerStatuses {
		if s.Name == main || s.State.Running == nil {
			continue
		}
		for i, c := range pod.Spec.Containers {
			if c.Name == s.Name && c.Image != nopImage {
				ops = append(ops, Op{Op: "replace", Path: fmt.Sprintf("/spec/containers/%d/image", i), Value: nopImage})
				break
			}
		}
	}
	if len(ops) == 0 {
		return nil, nil
	}
	return json.Marshal(ops)
}

// TemplateImagePatch replaces the image of the named container of deploy's
// pod template, by its position in the list deploy carries.
func TemplateImagePatch(deploy *appsv1.Deployment, name, image string) ([]byte, error) { // want TemplateImagePatch:"returns a JSON patch #0 that addresses /spec/template/spec/containers/{}/image by index"
	var ops []Op
	for i, c := range deploy.Spec.Template.Spec.Containers {
		if c.Name == name {
			ops = append(ops, Op{Op: "replace", Path: fmt.Sprintf("/spec/template/spec/containers/%d/image", i), Value: image})
		}
	}
	return json.Marshal(ops)
}
