package staleretry

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/crd/clientset/versioned"
	widgetlisters "lostupdate.test/crd/listers/widgets/v1"
	"lostupdate.test/staleretry/retryutil"
)

// WidgetController is a generated-clientset controller for the Widget CRD.
type WidgetController struct {
	widgetClient versioned.Interface
	widgetLister widgetlisters.WidgetLister
}

// The status sync copies the cached Widget before the retry and retries the
// status write of that copy.
func (c *WidgetController) badWidgetStatusCopiedBeforeRetry(ctx context.Context, ns, name string, ready int32) error {
	cached, err := c.widgetLister.Widgets(ns).Get(name)
	if err != nil {
		return err
	}
	widget := cached.DeepCopy()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		widget.Status.ReadyReplicas = ready
		widget.Status.ObservedGeneration = widget.Generation
		_, err := c.widgetClient.WidgetsV1().Widgets(ns).UpdateStatus(ctx, widget, metav1.UpdateOptions{}) // want "^stale-retry: .*widget"
		return err
	})
}

// A pause helper gets the Widget through the clientset, then retries only the
// write with the operator's wrapper.
func (c *WidgetController) badPauseWidgetReadBeforeWrapper(ctx context.Context, ns, name string) error {
	w, err := c.widgetClient.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retryutil.OnConflict(ctx, func() error {
		w.Spec.Paused = true
		_, err := c.widgetClient.WidgetsV1().Widgets(ns).Update(ctx, w, metav1.UpdateOptions{}) // want "^stale-retry: "
		return err
	})
}

// The Widget is fetched through the generated clientset inside the retry.
func (c *WidgetController) okWidgetConditionGetInsideRetry(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		widget, err := c.widgetClient.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{
			Type:               "Ready",
			Status:             metav1.ConditionTrue,
			Reason:             "ReplicasAvailable",
			ObservedGeneration: widget.Generation,
		})
		_, err = c.widgetClient.WidgetsV1().Widgets(ns).UpdateStatus(ctx, widget, metav1.UpdateOptions{})
		return err
	})
}

// The desired Widget spec is computed from the cache once; inside the retry a
// fresh read supplies the object that is written.
func (c *WidgetController) okWidgetSpecAppliedToFreshRead(ctx context.Context, desired *widgetsv1.Widget) error {
	return retryutil.OnConflict(ctx, func() error {
		current, err := c.widgetClient.WidgetsV1().Widgets(desired.Namespace).Get(ctx, desired.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		updated := current.DeepCopy()
		updated.Spec = desired.Spec
		_, err = c.widgetClient.WidgetsV1().Widgets(desired.Namespace).Update(ctx, updated, metav1.UpdateOptions{})
		return err
	})
}

// The methods above are run by the controller's workers.
var _ = []any{(*WidgetController).badPauseWidgetReadBeforeWrapper, (*WidgetController).badWidgetStatusCopiedBeforeRetry}

// The functions above are run by the program's workers.
var _ = []any{(*WidgetController).okWidgetConditionGetInsideRetry, (*WidgetController).okWidgetSpecAppliedToFreshRead}
