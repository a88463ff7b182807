package missingretry

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/crd/clientset/versioned"
	widgetlisters "lostupdate.test/crd/listers/widgets/v1"
)

// WidgetController drives the Widget CRD through its generated clientset.
type WidgetController struct {
	widgetClient versioned.Interface
	widgetLister widgetlisters.WidgetLister
}

// A scaler logs a conflict at debug level and reports success; the new
// replica count is never written.
func (c *WidgetController) badWidgetScaleConflictLoggedAndDropped(ctx context.Context, ns, name string, replicas int32) error {
	widget, err := c.widgetClient.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	widget.Spec.Replicas = &replicas
	if _, err := c.widgetClient.WidgetsV1().Widgets(ns).Update(ctx, widget, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*widget"
		if apierrors.IsConflict(err) {
			klog.V(4).InfoS("Widget changed concurrently, skipping scale", "widget", klog.KObj(widget))
			return nil
		}
		return err
	}
	return nil
}

// A status sync from the lister calls UpdateStatus as a bare statement.
func (c *WidgetController) badWidgetStatusResultIgnored(ctx context.Context, ns, name string, ready int32) error {
	cached, err := c.widgetLister.Widgets(ns).Get(name)
	if err != nil {
		return err
	}
	widget := cached.DeepCopy()
	widget.Status.ReadyReplicas = ready
	c.widgetClient.WidgetsV1().Widgets(ns).UpdateStatus(ctx, widget, metav1.UpdateOptions{}) // want "^missing-retry: .*widget"
	return nil
}

// The Widget is handed in by the caller and its Update's error is returned.
func (c *WidgetController) okWidgetParameterErrorReturned(ctx context.Context, widget *widgetsv1.Widget, image string) error {
	widget.Spec.Image = image
	if _, err := c.widgetClient.WidgetsV1().Widgets(widget.Namespace).Update(ctx, widget, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("setting image of widget %s/%s: %w", widget.Namespace, widget.Name, err)
	}
	return nil
}

// The methods above are run by the controller's workers.
var _ = []any{(*WidgetController).badWidgetScaleConflictLoggedAndDropped, (*WidgetController).badWidgetStatusResultIgnored}

// The functions above are run by the program's workers.
var _ = []any{(*WidgetController).okWidgetParameterErrorReturned}
