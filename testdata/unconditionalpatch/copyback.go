package unconditionalpatch

import (
	"context"
	"reflect"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// ScalerReconciler keeps a status of scalars (no list, no map), changed
// through a copy: desired := obj.Status; mutate(&desired); obj.Status =
// desired. The merge patch from the snapshot carries only the scalars that
// changed, each set by the caller's mutate function: desired state, not a
// value computed from the one it replaces.
type ScalerReconciler struct {
	client.Client
}

func (r *ScalerReconciler) patchStatus(ctx context.Context, hpa *autoscalingv1.HorizontalPodAutoscaler, mutate func(*autoscalingv1.HorizontalPodAutoscalerStatus)) error {
	desired := hpa.Status
	mutate(&desired)
	if reflect.DeepEqual(hpa.Status, desired) {
		return nil
	}
	patch := client.MergeFrom(hpa.DeepCopy())
	hpa.Status = desired
	return r.Status().Patch(ctx, hpa, patch)
}

// The positive control: the copy's counter is advanced from what was read,
// and a concurrent advance is overwritten.
func (r *ScalerReconciler) countScale(ctx context.Context, hpa *autoscalingv1.HorizontalPodAutoscaler) error {
	desired := hpa.Status
	desired.DesiredReplicas = desired.DesiredReplicas + 1
	patch := client.MergeFrom(hpa.DeepCopy())
	hpa.Status = desired
	return r.Status().Patch(ctx, hpa, patch) // want "^unconditional-patch: Status\\(\\)\\.Patch of hpa sends a merge patch from MergeFrom without a precondition"
}

func (r *ScalerReconciler) markScaled(ctx context.Context, hpa *autoscalingv1.HorizontalPodAutoscaler, replicas int32) error {
	return r.patchStatus(ctx, hpa, func(s *autoscalingv1.HorizontalPodAutoscalerStatus) {
		s.CurrentReplicas = replicas
		s.ObservedGeneration = &hpa.Generation
	})
}

// A status that holds a list, changed through a copy: the merge patch
// replaces the whole list of conditions.
func (r *ScalerReconciler) patchWidgetStatus(ctx context.Context, w *widgetsv1.Widget, mutate func(*widgetsv1.WidgetStatus)) error {
	desired := w.Status
	mutate(&desired)
	patch := client.MergeFrom(w.DeepCopy())
	w.Status = desired
	return r.Status().Patch(ctx, w, patch) // want "^unconditional-patch: Status\\(\\)\\.Patch of w sends a merge patch from MergeFrom without a precondition"
}

func (r *ScalerReconciler) markReady(ctx context.Context, w *widgetsv1.Widget) error {
	return r.patchWidgetStatus(ctx, w, func(s *widgetsv1.WidgetStatus) {
		meta.SetStatusCondition(&s.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Scaled"})
	})
}

// The positive controls through functions: the mutate function the one
// caller gives advances a counter of the copy, and a closure that captures
// the copy does.
func (r *ScalerReconciler) patchCounted(ctx context.Context, hpa *autoscalingv1.HorizontalPodAutoscaler, mutate func(*autoscalingv1.HorizontalPodAutoscalerStatus)) error {
	desired := hpa.Status
	mutate(&desired)
	patch := client.MergeFrom(hpa.DeepCopy())
	hpa.Status = desired
	return r.Status().Patch(ctx, hpa, patch) // want "^unconditional-patch: Status\\(\\)\\.Patch of hpa sends a merge patch from MergeFrom without a precondition"
}

func (r *ScalerReconciler) countAttempt(ctx context.Context, hpa *autoscalingv1.HorizontalPodAutoscaler) error {
	return r.patchCounted(ctx, hpa, func(s *autoscalingv1.HorizontalPodAutoscalerStatus) {
		s.DesiredReplicas++
	})
}

func (r *ScalerReconciler) countInClosure(ctx context.Context, hpa *autoscalingv1.HorizontalPodAutoscaler) error {
	desired := hpa.Status
	inc := func() { desired.DesiredReplicas++ }
	inc()
	patch := client.MergeFrom(hpa.DeepCopy())
	hpa.Status = desired
	return r.Status().Patch(ctx, hpa, patch) // want "^unconditional-patch: Status\\(\\)\\.Patch of hpa sends a merge patch from MergeFrom without a precondition"
}

// A status that holds a list, changed through a copy whose fields the
// caller's mutate function sets from the controller's desired state, the
// list whole (not from the list read): the merge patch sends the phase and
// the conditions the controller decided, a desired-state write.
func (r *ScalerReconciler) patchWidgetPhase(ctx context.Context, w *widgetsv1.Widget, mutate func(*widgetsv1.WidgetStatus)) error {
	desired := w.Status
	mutate(&desired)
	if equality.Semantic.DeepEqual(w.Status, desired) {
		return nil
	}
	patch := client.MergeFrom(w.DeepCopy())
	w.Status = desired
	return r.Status().Patch(ctx, w, patch)
}

func (r *ScalerReconciler) markPhase(ctx context.Context, w *widgetsv1.Widget, phase string) error {
	return r.patchWidgetPhase(ctx, w, func(s *widgetsv1.WidgetStatus) {
		s.Phase = phase
		s.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: phase}}
	})
}

// The positive controls with a list: the copy's list changed in place
// (the list read, one element changed, sent whole), and appended to.
func (r *ScalerReconciler) patchWidgetInPlace(ctx context.Context, w *widgetsv1.Widget, mutate func(*widgetsv1.WidgetStatus)) error {
	desired := w.Status
	mutate(&desired)
	if equality.Semantic.DeepEqual(w.Status, desired) {
		return nil
	}
	patch := client.MergeFrom(w.DeepCopy())
	w.Status = desired
	return r.Status().Patch(ctx, w, patch) // want "^unconditional-patch: Status\\(\\)\\.Patch of w sends a merge patch from MergeFrom without a precondition"
}

func (r *ScalerReconciler) markNotReady(ctx context.Context, w *widgetsv1.Widget) error {
	return r.patchWidgetInPlace(ctx, w, func(s *widgetsv1.WidgetStatus) {
		if len(s.Conditions) > 0 {
			s.Conditions[0].Status = metav1.ConditionFalse
		}
	})
}

func (r *ScalerReconciler) appendCondition(ctx context.Context, w *widgetsv1.Widget, c metav1.Condition) error {
	desired := w.Status
	desired.Phase = "Degraded"
	desired.Conditions = append(desired.Conditions, c)
	patch := client.MergeFrom(w.DeepCopy())
	w.Status = desired
	return r.Status().Patch(ctx, w, patch) // want "^unconditional-patch: Status\\(\\)\\.Patch of w sends a merge patch from MergeFrom without a precondition"
}

var _ = []any{(*ScalerReconciler).markPhase, (*ScalerReconciler).markNotReady, (*ScalerReconciler).appendCondition}

var _ = []any{(*ScalerReconciler).countScale, (*ScalerReconciler).markScaled, (*ScalerReconciler).markReady, (*ScalerReconciler).countAttempt, (*ScalerReconciler).countInClosure}
