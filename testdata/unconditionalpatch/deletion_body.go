package unconditionalpatch

import (
	"context"
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/crd/clientset/versioned"
)

// A merge patch body that sets the whole finalizer list, built from a
// Widget being deleted, two helpers away from the test of its deletion
// timestamp, on a deep copy of the object tested, after a change that only
// removes one. The API server refuses new finalizers once the timestamp is
// set, so a stale list that brings back one removed meanwhile is rejected,
// not applied: not reported.

type widgetCleaner struct {
	wc versioned.Interface
}

// dropWidgetFinalizer removes a finalizer.
func dropWidgetFinalizer(meta *metav1.ObjectMeta, name string) {
	var kept []string
	for _, f := range meta.Finalizers {
		if f != name {
			kept = append(kept, f)
		}
	}
	meta.Finalizers = kept
}

// setWidgetFinalizer adds or removes a finalizer, as exist says.
func setWidgetFinalizer(meta *metav1.ObjectMeta, name string, exist bool) {
	for i, f := range meta.Finalizers {
		if f == name {
			if !exist {
				meta.Finalizers = append(meta.Finalizers[:i], meta.Finalizers[i+1:]...)
			}
			return
		}
	}
	if exist {
		meta.Finalizers = append(meta.Finalizers, name)
	}
}

func (c *widgetCleaner) processDeleted(ctx context.Context, ns, name string) error {
	orig, err := c.wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if orig.DeletionTimestamp != nil && len(orig.Finalizers) > 0 {
		return c.finalizeDeletion(ctx, orig.DeepCopy())
	}
	return nil
}

func (c *widgetCleaner) finalizeDeletion(ctx context.Context, w *widgetsv1.Widget) error {
	if w.Spec.Image != "" {
		return nil // still in use
	}
	return c.removeFinalizer(ctx, w)
}

func (c *widgetCleaner) removeFinalizer(ctx context.Context, w *widgetsv1.Widget) error {
	dropWidgetFinalizer(&w.ObjectMeta, widgetFinalizer)
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"finalizers": w.Finalizers},
	})
	if err != nil {
		return err
	}
	_, err = c.wc.WidgetsV1().Widgets(w.Namespace).Patch(ctx, w.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// The positive control: a helper that sends the same body is called on a
// Widget that is not being deleted too, where a finalizer another
// controller added since the read is dropped.
func (c *widgetCleaner) sync(ctx context.Context, ns, name string, keep bool) error {
	orig, err := c.wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if orig.DeletionTimestamp != nil {
		return c.updateFinalizers(ctx, orig.DeepCopy(), false)
	}
	return c.updateFinalizers(ctx, orig.DeepCopy(), keep)
}

func (c *widgetCleaner) updateFinalizers(ctx context.Context, w *widgetsv1.Widget, keep bool) error {
	setWidgetFinalizer(&w.ObjectMeta, widgetFinalizer, keep)
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"finalizers": w.Finalizers},
	})
	if err != nil {
		return err
	}
	_, err = c.wc.WidgetsV1().Widgets(w.Namespace).Patch(ctx, w.Name, types.MergePatchType, patch, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// The functions above are run by the program's workers.
var _ = []any{(*widgetCleaner).processDeleted, (*widgetCleaner).sync}
