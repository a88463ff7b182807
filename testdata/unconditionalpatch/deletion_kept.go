package unconditionalpatch

import (
	"context"
	"encoding/json"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"lostupdate.test/crd/clientset/versioned"
)

// A Widget being deleted loses its finalizer through a patch whose body is
// a list filtered from the one read, kept apart from the object: as for a
// list removed from in place, a stale list that brings back a finalizer
// removed meanwhile is refused while the object is being deleted, not
// applied. Neither the merge patch nor the JSON patch is reported.

func releaseWidget(ctx context.Context, wc versioned.Interface, ns, name string) error {
	w, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil || w.DeletionTimestamp == nil {
		return err
	}
	var kept []string
	for _, f := range w.Finalizers {
		if f != widgetFinalizer {
			kept = append(kept, f)
		}
	}
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": kept}})
	if err != nil {
		return err
	}
	_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.MergePatchType, body, metav1.PatchOptions{})
	return err
}

func releaseWidgetJSON(ctx context.Context, wc versioned.Interface, ns, name string) error {
	w, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil || w.DeletionTimestamp == nil {
		return err
	}
	kept := slices.DeleteFunc(slices.Clone(w.Finalizers), func(f string) bool { return f == widgetFinalizer })
	body, err := json.Marshal([]map[string]any{{"op": "replace", "path": "/metadata/finalizers", "value": kept}})
	if err != nil {
		return err
	}
	_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.JSONPatchType, body, metav1.PatchOptions{})
	return err
}

// The positive controls: the same patches on a Widget that is not being
// deleted, where a finalizer another controller added since the read is
// dropped.

func releaseLiveWidget(ctx context.Context, wc versioned.Interface, ns, name string) error {
	w, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	var kept []string
	for _, f := range w.Finalizers {
		if f != widgetFinalizer {
			kept = append(kept, f)
		}
	}
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": kept}})
	if err != nil {
		return err
	}
	_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.MergePatchType, body, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

func releaseLiveWidgetJSON(ctx context.Context, wc versioned.Interface, ns, name string) error {
	w, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	kept := slices.DeleteFunc(slices.Clone(w.Finalizers), func(f string) bool { return f == widgetFinalizer })
	body, err := json.Marshal([]map[string]any{{"op": "replace", "path": "/metadata/finalizers", "value": kept}})
	if err != nil {
		return err
	}
	_, err = wc.WidgetsV1().Widgets(ns).Patch(ctx, name, types.JSONPatchType, body, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

var _ = []any{releaseWidget, releaseWidgetJSON, releaseLiveWidget, releaseLiveWidgetJSON}
