package applyretry

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// desiredDeployment is the Deployment a Widget asks for.
func desiredDeployment(widget *widgetsv1.Widget) *appsv1.Deployment {
	labels := map[string]string{"app.kubernetes.io/instance": widget.Name}
	return &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: widget.Name, Namespace: widget.Namespace},
		Spec: appsv1.DeploymentSpec{
			Replicas: widget.Spec.Replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "widget", Image: widget.Spec.Image}}},
			},
		},
	}
}

// WidgetDeploymentReconciler applies the desired Deployment with client.Apply
// inside RetryOnConflict: the 409 of an ownership conflict comes back on every
// attempt.
type WidgetDeploymentReconciler struct {
	client.Client
}

func (r *WidgetDeploymentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return r.Patch(ctx, desiredDeployment(&widget), client.Apply, client.FieldOwner(fieldManager)) // want "^apply-retry: "
	})
	return ctrl.Result{}, err
}

// WidgetConfigReconciler uses the typed Apply method of the client inside
// RetryOnConflict.
type WidgetConfigReconciler struct {
	client.Client
}

func (r *WidgetConfigReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm := corev1ac.ConfigMap(widget.Name+"-config", widget.Namespace).
			WithData(map[string]string{"image": widget.Spec.Image})
		return r.Apply(ctx, cm, client.FieldOwner(fieldManager)) // want "^apply-retry: "
	})
	return ctrl.Result{}, err
}

// WidgetDeploymentStatusReconciler applies a condition to a Deployment status
// through the status subresource, retried on conflicts with retry.OnError.
type WidgetDeploymentStatusReconciler struct {
	client.Client
}

func (r *WidgetDeploymentStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		ac := appsv1ac.Deployment(req.Name, req.Namespace).WithStatus(appsv1ac.DeploymentStatus().WithConditions(
			appsv1ac.DeploymentCondition().
				WithType("widgets.example.com/Verified").
				WithStatus(corev1.ConditionTrue).
				WithReason("SmokeTestPassed"),
		))
		return r.Status().Apply(ctx, ac, client.FieldOwner(fieldManager)) // want "^apply-retry: "
	})
	return ctrl.Result{}, err
}

// MonitorReconciler applies an unstructured ServiceMonitor in a hand-written
// conflict loop.
type MonitorReconciler struct {
	client.Client
}

func (r *MonitorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	monitor := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "monitoring.coreos.com/v1",
		"kind":       "ServiceMonitor",
		"metadata":   map[string]interface{}{"name": req.Name, "namespace": req.Namespace},
		"spec": map[string]interface{}{
			"selector":  map[string]interface{}{"matchLabels": map[string]interface{}{"app": req.Name}},
			"endpoints": []interface{}{map[string]interface{}{"port": "metrics"}},
		},
	}}
	var err error
	for i := 0; i < 3; i++ {
		err = r.Patch(ctx, monitor, client.Apply, client.FieldOwner(fieldManager)) // want "^apply-retry: "
		if err == nil || !apierrors.IsConflict(err) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	return ctrl.Result{}, err
}

// ForcedDeploymentReconciler applies with ForceOwnership inside
// RetryOnConflict: force resolves ownership conflicts, so the retry is
// harmless.
type ForcedDeploymentReconciler struct {
	client.Client
}

func (r *ForcedDeploymentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return r.Patch(ctx, desiredDeployment(&widget), client.Apply, client.ForceOwnership, client.FieldOwner(fieldManager))
	})
	return ctrl.Result{}, err
}

// ForcedConfigReconciler uses the Apply method with ForceOwnership inside
// RetryOnConflict.
type ForcedConfigReconciler struct {
	client.Client
}

func (r *ForcedConfigReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm := corev1ac.ConfigMap(req.Name+"-config", req.Namespace).WithData(map[string]string{"ready": "true"})
		return r.Apply(ctx, cm, client.ForceOwnership, client.FieldOwner(fieldManager))
	})
	return ctrl.Result{}, err
}

// PlainApplyReconciler applies and returns the error: the work queue requeues
// it with backoff, there is no conflict retry.
type PlainApplyReconciler struct {
	client.Client
}

func (r *PlainApplyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ac := appsv1ac.Deployment(widget.Name, widget.Namespace).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(ptr.Deref(widget.Spec.Replicas, 1)))
	if err := r.Apply(ctx, ac, client.FieldOwner(fieldManager)); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// MergePatchRetryReconciler re-reads and merge-patches with the optimistic
// lock inside RetryOnConflict: a JSON merge patch, not Server-Side Apply.
type MergePatchRetryReconciler struct {
	client.Client
}

func (r *MergePatchRetryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var deploy appsv1.Deployment
		if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
			return err
		}
		patch := client.MergeFromWithOptions(deploy.DeepCopy(), client.MergeFromWithOptimisticLock{})
		deploy.Spec.Paused = true
		return r.Patch(ctx, &deploy, patch)
	})
	return ctrl.Result{}, err
}
