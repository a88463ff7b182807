package staleread

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/crd/clientset/versioned"
	widgetlisters "lostupdate.test/crd/listers/widgets/v1"
)

// A generated CRD clientset read with RV=0 feeds the Update of the Widget's spec.
func badWidgetCacheGetThenUpdate(ctx context.Context, wc versioned.Interface, ns, name string, replicas int32) error {
	w, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	w.Spec.Replicas = ptr.To(replicas)
	_, err = wc.WidgetsV1().Widgets(ns).Update(ctx, w, metav1.UpdateOptions{})
	return err
}

// WidgetStatusController writes Widget status from the generated lister.
type WidgetStatusController struct {
	clientset versioned.Interface
	lister    widgetlisters.WidgetLister
}

// The generated Widget lister re-read inside RetryOnConflict before UpdateStatus keeps returning the cached Widget.
func (c *WidgetStatusController) badWidgetListerInsideRetry(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cached, err := c.lister.Widgets(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return err
		}
		w := cached.DeepCopy()
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Degraded"})
		_, err = c.clientset.WidgetsV1().Widgets(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

// The informer sync handler for Widgets: lister read outside any retry, error back to the queue.
func (c *WidgetStatusController) okWidgetListerInSyncHandler(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := c.lister.Widgets(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	w := cached.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	_, err = c.clientset.WidgetsV1().Widgets(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{})
	return err
}

// Counting paused Widgets through the lister for a summary writes nothing.
func (c *WidgetStatusController) okWidgetListerListForSummary() (int, error) {
	widgets, err := c.lister.List(labels.Everything())
	if err != nil {
		return 0, err
	}
	paused := 0
	for _, w := range widgets {
		if w.Spec.Paused {
			paused++
		}
	}
	return paused, nil
}

// A conflict retry over the CRD clientset that re-reads the Widget from the API server.
func okWidgetFreshGetInsideRetry(ctx context.Context, wc versioned.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		w.Spec.Paused = false
		_, err = wc.WidgetsV1().Widgets(ns).Update(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

// cachedWidget reads a Widget from the lister, as a controller's helper.
func (c *WidgetStatusController) cachedWidget(ns, name string) (*widgetsv1.Widget, error) {
	w, err := c.lister.Widgets(ns).Get(name)
	if err != nil {
		return nil, err
	}
	return w.DeepCopy(), nil
}

// freshWidget reads a Widget from the API server.
func (c *WidgetStatusController) freshWidget(ctx context.Context, ns, name string) (*widgetsv1.Widget, error) {
	return c.clientset.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
}

// The lister read hides in a helper: every attempt still gets the cached
// Widget.
func (c *WidgetStatusController) badWidgetHelperCacheInsideRetry(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := c.cachedWidget(ns, name) // want "^stale-read: cachedWidget"
		if err != nil {
			return err
		}
		w.Spec.Paused = true
		_, err = c.clientset.WidgetsV1().Widgets(ns).Update(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

// The helper reads from the API server: each attempt sees the latest Widget.
func (c *WidgetStatusController) okWidgetHelperFreshInsideRetry(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := c.freshWidget(ctx, ns, name)
		if err != nil {
			return err
		}
		w.Spec.Paused = true
		_, err = c.clientset.WidgetsV1().Widgets(ns).Update(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{(*WidgetStatusController).badWidgetHelperCacheInsideRetry, (*WidgetStatusController).badWidgetListerInsideRetry, badWidgetCacheGetThenUpdate}

// The functions above are run by the program's workers.
var _ = []any{(*WidgetStatusController).okWidgetHelperFreshInsideRetry, (*WidgetStatusController).okWidgetListerInSyncHandler, (*WidgetStatusController).okWidgetListerListForSummary, okWidgetFreshGetInsideRetry}
