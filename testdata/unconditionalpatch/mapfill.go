package unconditionalpatch

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// The extra labels are an index rebuilt every pass: a helper sets the map
// to a fresh one and fills it through the API package's AddLabelValue,
// which reads and sets an entry. The entries it reads are those of the map
// just made: the patch sends desired state, not a read-modify-write.
type WidgetLabelIndexReconciler struct {
	client.Client
}

func (r *WidgetLabelIndexReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := widget.DeepCopy()
	reindexLabels(widget, map[string][]string{"tier": {"web", "db"}})
	return ctrl.Result{}, r.Patch(ctx, widget, client.MergeFrom(base))
}

func reindexLabels(widget *widgetsv1.Widget, index map[string][]string) {
	widget.Spec.Labels = make(map[string]string)
	for k, vs := range index {
		for _, v := range vs {
			widget.AddLabelValue(k, v)
		}
	}
}

// The control: the same helper adds to the map that was read, so the
// value it sets is computed from the value it replaces.
type WidgetLabelAppendReconciler struct {
	client.Client
}

func (r *WidgetLabelAppendReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := widget.DeepCopy()
	appendLabels(widget, map[string][]string{"tier": {"cache"}})
	return ctrl.Result{}, r.Patch(ctx, widget, client.MergeFrom(base)) // want `^unconditional-patch: Patch of widget sends a merge patch from MergeFrom without a precondition, and spec\.labels of widget is set from a value read from it`
}

func appendLabels(widget *widgetsv1.Widget, index map[string][]string) {
	if widget.Spec.Labels == nil {
		widget.Spec.Labels = map[string]string{}
	}
	for k, vs := range index {
		for _, v := range vs {
			widget.AddLabelValue(k, v)
		}
	}
}
