package unconditionalpatch

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// findCondition returns the address of the condition of a type in a list,
// or nil: what is written through it changes the list's element.
func findCondition(conds []metav1.Condition, t string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// probe marks a condition as checked, through the address it is given.
func probe(c *metav1.Condition, healthy bool) {
	c.Status = metav1.ConditionFalse
	if healthy {
		c.Status = metav1.ConditionTrue
	}
	c.LastTransitionTime = metav1.NewTime(time.Now())
}

// A health checker changes one condition of a widget read from the cache,
// found by a helper, and patches the status.
type WidgetHealthReconciler struct {
	client.Client
}

func (r *WidgetHealthReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	c := findCondition(w.Status.Conditions, "Healthy")
	if c == nil {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	c.Status = metav1.ConditionFalse
	return ctrl.Result{}, r.Status().Patch(ctx, &w, client.MergeFrom(base)) // want "^unconditional-patch: Status\\(\\)\\.Patch of w sends a merge patch from MergeFrom without a precondition, and the status\\.conditions list of w changed since the snapshot"
}

// The same change made by a helper given the element's address.
type WidgetProbeReconciler struct {
	client.Client
}

func (r *WidgetProbeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	c := findCondition(w.Status.Conditions, "Healthy")
	if c == nil {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	probe(c, w.Spec.Replicas != nil)
	return ctrl.Result{}, r.Status().Patch(ctx, &w, client.MergeFrom(base)) // want "^unconditional-patch: Status\\(\\)\\.Patch of w sends a merge patch from MergeFrom without a precondition, and the status\\.conditions list of w changed since the snapshot"
}

// okProbeLocked: the same, with the optimistic lock, fails with 409 when
// the list changed meanwhile.
func (r *WidgetProbeReconciler) okProbeLocked(ctx context.Context, w *widgetsv1.Widget) error {
	c := findCondition(w.Status.Conditions, "Healthy")
	if c == nil {
		return nil
	}
	base := w.DeepCopy()
	probe(c, true)
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// okProbeReadOnly only reads the element the helper finds; the patch
// sends a label, set blind.
func (r *WidgetProbeReconciler) okProbeReadOnly(ctx context.Context, w *widgetsv1.Widget) error {
	c := findCondition(w.Status.Conditions, "Healthy")
	if c == nil || c.Status == metav1.ConditionTrue {
		return nil
	}
	base := w.DeepCopy()
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels["example.com/unhealthy"] = "true"
	return r.Patch(ctx, w, client.MergeFrom(base))
}

// okProbeOwnList: the helper finds an element of a list the controller
// built, not of the object's; the patch sends a label.
func (r *WidgetProbeReconciler) okProbeOwnList(ctx context.Context, w *widgetsv1.Widget) error {
	desired := []metav1.Condition{{Type: "Healthy"}}
	base := w.DeepCopy()
	probe(findCondition(desired, "Healthy"), true)
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels["example.com/healthy"] = string(desired[0].Status)
	return r.Patch(ctx, w, client.MergeFrom(base))
}

// A monitoring candidate holds the widget a List gave; each use of
// cand.widget loads the field again.
type monitoringCandidate struct {
	widget *widgetsv1.Widget
	since  time.Time
}

// badCheckCandidate changes a condition of the candidate's widget and
// patches it: every load of cand.widget is the one widget.
func (r *WidgetProbeReconciler) badCheckCandidate(ctx context.Context, cand *monitoringCandidate) error {
	c := findCondition(cand.widget.Status.Conditions, "Healthy")
	if c == nil {
		return nil
	}
	base := cand.widget.DeepCopy()
	probe(c, time.Since(cand.since) < time.Minute)
	return r.Status().Patch(ctx, cand.widget, client.MergeFrom(base)) // want "^unconditional-patch: Status\\(\\)\\.Patch of cand\\.widget sends a merge patch from MergeFrom without a precondition, and the status\\.conditions list of cand\\.widget changed since the snapshot"
}

// okCheckCopy gives the candidate a copy of its widget before it takes the
// snapshot: the condition changed is the old widget's, and the patch of
// the copy sends no change of the list.
func (r *WidgetProbeReconciler) okCheckCopy(ctx context.Context, cand *monitoringCandidate) error {
	c := findCondition(cand.widget.Status.Conditions, "Healthy")
	if c == nil {
		return nil
	}
	cand.widget = cand.widget.DeepCopy()
	base := cand.widget.DeepCopy()
	probe(c, true)
	return r.Status().Patch(ctx, cand.widget, client.MergeFrom(base))
}

// badProbeInline gives the helper the element's address inline.
func (r *WidgetProbeReconciler) badProbeInline(ctx context.Context, w *widgetsv1.Widget) error {
	base := w.DeepCopy()
	for i := range w.Status.Conditions {
		if w.Status.Conditions[i].Type == "Healthy" {
			probe(&w.Status.Conditions[i], true)
		}
	}
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want "^unconditional-patch: Status\\(\\)\\.Patch of w sends a merge patch from MergeFrom without a precondition, and the status\\.conditions list of w changed since the snapshot"
}

// healthy only reads the condition it is given.
func healthy(c *metav1.Condition) bool { return c.Status == metav1.ConditionTrue }

// okInlineReadOnly gives the element's address inline to a helper that
// only reads it; the patch sends a label, set blind.
func (r *WidgetProbeReconciler) okInlineReadOnly(ctx context.Context, w *widgetsv1.Widget) error {
	base := w.DeepCopy()
	for i := range w.Status.Conditions {
		if w.Status.Conditions[i].Type == "Healthy" && !healthy(&w.Status.Conditions[i]) {
			if w.Labels == nil {
				w.Labels = map[string]string{}
			}
			w.Labels["example.com/unhealthy"] = "true"
		}
	}
	return r.Patch(ctx, w, client.MergeFrom(base))
}

// detach gives the candidate a copy of its widget.
func (c *monitoringCandidate) detach() { c.widget = c.widget.DeepCopy() }

// okCheckDetached is okCheckCopy with the copy made by a method of the
// candidate: the loads before and after the call are not one widget.
func (r *WidgetProbeReconciler) okCheckDetached(ctx context.Context, cand *monitoringCandidate) error {
	c := findCondition(cand.widget.Status.Conditions, "Healthy")
	if c == nil {
		return nil
	}
	cand.detach()
	base := cand.widget.DeepCopy()
	probe(c, true)
	return r.Status().Patch(ctx, cand.widget, client.MergeFrom(base))
}

// okCheckReplaced replaces the whole candidate, with a copy of its widget.
func (r *WidgetProbeReconciler) okCheckReplaced(ctx context.Context, cand *monitoringCandidate) error {
	c := findCondition(cand.widget.Status.Conditions, "Healthy")
	if c == nil {
		return nil
	}
	*cand = monitoringCandidate{widget: cand.widget.DeepCopy(), since: cand.since}
	base := cand.widget.DeepCopy()
	probe(c, true)
	return r.Status().Patch(ctx, cand.widget, client.MergeFrom(base))
}

var _ = []any{(*WidgetProbeReconciler).okCheckDetached, (*WidgetProbeReconciler).okCheckReplaced}

var _ = []any{(*WidgetProbeReconciler).badProbeInline, (*WidgetProbeReconciler).okInlineReadOnly}

var _ = []any{(*WidgetProbeReconciler).okProbeLocked, (*WidgetProbeReconciler).okProbeReadOnly, (*WidgetProbeReconciler).okProbeOwnList,
	(*WidgetProbeReconciler).badCheckCandidate, (*WidgetProbeReconciler).okCheckCopy}
