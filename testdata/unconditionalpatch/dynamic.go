package unconditionalpatch

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	jsonpatchv4 "gopkg.in/evanphx/json-patch.v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

var rolloutGVR = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "rollouts"}

// An image promoter finds the container by name in the unstructured Rollout
// it read and replaces its image by that index: if the list changed, the
// wrong container gets the image.
func badDynamicImageByScannedIndex(ctx context.Context, dc dynamic.Interface, ns, name, container, image string) error {
	rollout, err := dc.Resource(rolloutGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	containers, _, err := unstructured.NestedSlice(rollout.Object, "spec", "template", "spec", "containers")
	if err != nil {
		return err
	}
	for i, c := range containers {
		m, ok := c.(map[string]interface{})
		if !ok || m["name"] != container {
			continue
		}
		patch := fmt.Sprintf(`[{"op":"replace","path":"/spec/template/spec/containers/%d/image","value":%q}]`, i, image)
		_, err = dc.Resource(rolloutGVR).Namespace(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^unconditional-patch: "
		return err
	}
	return nil
}

// A cleanup job drops its finalizer from an unstructured object and computes
// a JSON merge patch against the read copy: the patch replaces the list.
func badDynamicCreateMergePatchFinalizers(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, ns, name string) error {
	obj, err := dc.Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	original, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	updated := obj.DeepCopy()
	var kept []string
	for _, f := range updated.GetFinalizers() {
		if f != widgetFinalizer {
			kept = append(kept, f)
		}
	}
	updated.SetFinalizers(kept)
	modified, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	patch, err := jsonpatchv4.CreateMergePatch(original, modified)
	if err != nil {
		return err
	}
	_, err = dc.Resource(gvr).Namespace(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// Pausing a Rollout with a constant merge patch.
func okDynamicPauseRollout(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	_, err := dc.Resource(rolloutGVR).Namespace(ns).Patch(ctx, name, types.MergePatchType, []byte(`{"spec":{"paused":true}}`), metav1.PatchOptions{})
	return err
}

// Stamping the time of the last sync as an annotation, with a merge patch
// marshalled from a map: the value comes from the clock, not from the object.
func okDynamicSyncedAtAnnotation(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, ns, name string) error {
	data, err := json.Marshal(map[string]interface{}{
		"metadata": map[string]interface{}{
			"annotations": map[string]string{"widgets.example.com/synced-at": time.Now().UTC().Format(time.RFC3339)},
		},
	})
	if err != nil {
		return err
	}
	_, err = dc.Resource(gvr).Namespace(ns).Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{})
	return err
}

// The image promoter with a test of the resourceVersion it read in front of
// the indexed replace.
func okDynamicImageByIndexWithTest(ctx context.Context, dc dynamic.Interface, ns, name, image string) error {
	rollout, err := dc.Resource(rolloutGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	ops := []map[string]interface{}{
		{"op": "test", "path": "/metadata/resourceVersion", "value": rollout.GetResourceVersion()},
		{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": image},
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = dc.Resource(rolloutGVR).Namespace(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badDynamicCreateMergePatchFinalizers, badDynamicImageByScannedIndex}

// The functions above are run by the program's workers.
var _ = []any{okDynamicImageByIndexWithTest, okDynamicPauseRollout, okDynamicSyncedAtAnnotation}
