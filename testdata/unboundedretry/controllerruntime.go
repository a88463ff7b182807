package unboundedretry

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// WidgetLabelReconciler copies the Widget's labels onto its Deployment in a
// loop that re-reads and updates until no conflict comes back.
type WidgetLabelReconciler struct {
	client.Client
}

func (r *WidgetLabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.syncLabels(ctx, &widget)
}

func (r *WidgetLabelReconciler) syncLabels(ctx context.Context, widget *widgetsv1.Widget) error {
	for {
		var deploy appsv1.Deployment
		if err := r.Get(ctx, client.ObjectKeyFromObject(widget), &deploy); err != nil {
			return err
		}
		if deploy.Labels == nil {
			deploy.Labels = map[string]string{}
		}
		for k, v := range widget.Spec.Labels {
			deploy.Labels[k] = v
		}
		err := r.Update(ctx, &deploy) // want "^unbounded-retry: "
		if err == nil {
			return nil
		}
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// WidgetStatusLoopReconciler writes the Widget status in a loop that retries
// conflicts forever.
type WidgetStatusLoopReconciler struct {
	client.Client
}

func (r *WidgetStatusLoopReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	for {
		var widget widgetsv1.Widget
		if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{
			Type:               "Ready",
			Status:             metav1.ConditionTrue,
			Reason:             "Reconciled",
			ObservedGeneration: widget.Generation,
		})
		if err := r.Status().Update(ctx, &widget); err != nil { // want "^unbounded-retry: "
			if apierrors.IsConflict(err) {
				continue
			}
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, nil
	}
}

// PodFinalizerReconciler removes a finalizer with an optimistic-lock merge
// patch (which fails with 409 on a concurrent change) and retries it in an
// endless loop.
type PodFinalizerReconciler struct {
	client.Client
}

func (r *PodFinalizerReconciler) removeFinalizer(ctx context.Context, key client.ObjectKey, finalizer string) error {
	for {
		pod := &corev1.Pod{}
		if err := r.Get(ctx, key, pod); err != nil {
			return client.IgnoreNotFound(err)
		}
		patch := client.MergeFromWithOptions(pod.DeepCopy(), client.MergeFromWithOptimisticLock{})
		var kept []string
		for _, f := range pod.Finalizers {
			if f != finalizer {
				kept = append(kept, f)
			}
		}
		pod.Finalizers = kept
		err := r.Patch(ctx, pod, patch) // want "^unbounded-retry: "
		if apierrors.IsConflict(err) {
			continue
		}
		return err
	}
}

// RequeueReconciler answers a conflict with a delayed requeue: the work queue
// paces the next attempt, nothing spins here.
type RequeueReconciler struct {
	client.Client
}

func (r *RequeueReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	deploy.Spec.Paused = false
	if err := r.Update(ctx, &deploy); err != nil {
		if apierrors.IsConflict(err) {
			return ctrl.Result{RequeueAfter: time.Second}, nil
		}
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// RetryingStatusReconciler writes the status inside RetryOnConflict.
type RetryingStatusReconciler struct {
	client.Client
}

func (r *RetryingStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var widget widgetsv1.Widget
		if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
			return err
		}
		widget.Status.ObservedGeneration = widget.Generation
		return r.Status().Update(ctx, &widget)
	})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// The methods above are run by the controller's workers.
var _ = []any{(*PodFinalizerReconciler).removeFinalizer}
