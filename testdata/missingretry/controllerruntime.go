package missingretry

import (
	"context"
	"errors"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/missingretry/kubeutil"
)

const widgetFinalizer = "widgets.example.com/cleanup"

// ConfigMapHashReconciler stamps a content hash on the ConfigMap and
// discards the write's error: a 409 is never retried and the stamp is lost.
type ConfigMapHashReconciler struct {
	client.Client
}

func (r *ConfigMapHashReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/hash"] = fmt.Sprint(len(cm.Data))
	_ = r.Update(ctx, &cm) // want "^missing-retry: .*cm"
	return ctrl.Result{}, nil
}

// WidgetStatusReconciler writes the status as a bare statement; the error,
// a conflict included, is ignored.
type WidgetStatusReconciler struct {
	client.Client
}

func (r *WidgetStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.ObservedGeneration = widget.Generation
	widget.Status.Phase = "Reconciled"
	r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}

// DeploymentPauseReconciler logs a failed Update and reports success, so the
// work queue forgets the request.
type DeploymentPauseReconciler struct {
	client.Client
}

func (r *DeploymentPauseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if deploy.Annotations["example.com/freeze"] != "true" || deploy.Spec.Paused {
		return ctrl.Result{}, nil
	}
	deploy.Spec.Paused = true
	if err := r.Update(ctx, &deploy); err != nil { // want "^missing-retry: .*deploy"
		log.Error(err, "unable to pause Deployment", "deployment", req.NamespacedName)
	}
	return ctrl.Result{}, nil
}

// ServiceAccountReconciler treats a conflict as "someone else is handling
// it" and drops it; only other errors are returned.
type ServiceAccountReconciler struct {
	client.Client
	PullSecret string
}

func (r *ServiceAccountReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	sa := &corev1.ServiceAccount{}
	if err := r.Get(ctx, req.NamespacedName, sa); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sa.ImagePullSecrets = append(sa.ImagePullSecrets, corev1.LocalObjectReference{Name: r.PullSecret})
	if err := r.Update(ctx, sa); err != nil { // want "^missing-retry: .*sa"
		if apierrors.IsConflict(err) {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// borderline: a later watch event may re-trigger this reconcile, but nothing
// requeues this request, and the spec counts a swallowed conflict.
// A reconciler returns every error except a conflict.
type SecretRotationReconciler struct {
	client.Client
}

func (r *SecretRotationReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	secret.Data["rotated-at"] = []byte(time.Now().UTC().Format(time.RFC3339))
	if err := r.Update(ctx, &secret); err != nil && !apierrors.IsConflict(err) { // want "^missing-retry: .*secret"
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: 24 * time.Hour}, nil
}

// NodeDrainReconciler reports a failed write only as a Kubernetes event.
type NodeDrainReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

func (r *NodeDrainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var node corev1.Node
	if err := r.Get(ctx, req.NamespacedName, &node); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	node.Spec.Unschedulable = true
	if err := r.Update(ctx, &node); err != nil { // want "^missing-retry: .*node"
		r.Recorder.Eventf(&node, corev1.EventTypeWarning, "CordonFailed", "failed to cordon: %v", err)
		return ctrl.Result{}, nil
	}
	r.Recorder.Event(&node, corev1.EventTypeNormal, "Cordoned", "node cordoned for drain")
	return ctrl.Result{}, nil
}

// WidgetConditionReconciler writes the status in a deferred function, the
// kubebuilder "always update status" idiom, but only logs its error.
type WidgetConditionReconciler struct {
	client.Client
}

func (r *WidgetConditionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err := r.Status().Update(ctx, widget); err != nil { // want "^missing-retry: .*widget"
			log.Error(err, "failed to update Widget status")
		}
	}()
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{
		Type:   "Ready",
		Status: metav1.ConditionTrue,
		Reason: "Reconciled",
	})
	return ctrl.Result{}, nil
}

// WidgetFinalizerReconciler adds its finalizer through a shared helper and
// only logs the helper's error.
type WidgetFinalizerReconciler struct {
	client.Client
}

func (r *WidgetFinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := kubeutil.EnsureFinalizer(ctx, r.Client, widget, widgetFinalizer); err != nil { // want "^missing-retry: "
		log.Error(err, "unable to add finalizer")
	}
	return ctrl.Result{}, nil
}

// DeploymentStatusReconciler calls its own status method as a statement; the
// method returns the write's error, which is then lost.
type DeploymentStatusReconciler struct {
	client.Client
}

func (r *DeploymentStatusReconciler) writeStatus(ctx context.Context, deploy *appsv1.Deployment) error {
	return r.Status().Update(ctx, deploy)
}

func (r *DeploymentStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	deploy.Status.ObservedGeneration = deploy.Generation
	r.writeStatus(ctx, &deploy) // want "^missing-retry: "
	return ctrl.Result{}, nil
}

// Returning the write's error is enough: controller-runtime requeues the
// request with backoff.
type PodLabelReconciler struct {
	client.Client
}

func (r *PodLabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels["example.com/scanned"] = "true"
	return ctrl.Result{}, r.Update(ctx, &pod)
}

// The write's error is wrapped with %w and returned.
type WidgetReplicaReconciler struct {
	client.Client
}

func (r *WidgetReplicaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.Spec.Replicas == nil {
		one := int32(1)
		widget.Spec.Replicas = &one
		if err := r.Update(ctx, &widget); err != nil {
			return ctrl.Result{}, fmt.Errorf("defaulting replicas of %s: %w", req.NamespacedName, err)
		}
	}
	return ctrl.Result{}, nil
}

// A conflict requeues the request instead of returning an error, to keep the
// logs quiet: the reconcile runs again on a fresh read.
type ServiceAnnotationReconciler struct {
	client.Client
}

func (r *ServiceAnnotationReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if svc.Annotations == nil {
		svc.Annotations = map[string]string{}
	}
	svc.Annotations["example.com/exposed"] = "true"
	if err := r.Update(ctx, svc); err != nil {
		if apierrors.IsConflict(err) {
			return ctrl.Result{Requeue: true}, nil
		}
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// A conflict is requeued after a short delay.
type StatefulSetPartitionReconciler struct {
	client.Client
}

func (r *StatefulSetPartitionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var sts appsv1.StatefulSet
	if err := r.Get(ctx, req.NamespacedName, &sts); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sts.Spec.UpdateStrategy.RollingUpdate == nil {
		return ctrl.Result{}, nil
	}
	sts.Spec.UpdateStrategy.RollingUpdate.Partition = nil
	err := r.Update(ctx, &sts)
	switch {
	case apierrors.IsConflict(err):
		return ctrl.Result{RequeueAfter: 2 * time.Second}, nil
	case err != nil:
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// A conflict is logged at a low verbosity and still returned.
type ConfigMapCleanupReconciler struct {
	client.Client
}

func (r *ConfigMapCleanupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	delete(cm.Data, "deprecated-key")
	err := r.Update(ctx, &cm)
	if apierrors.IsConflict(err) {
		log.V(1).Info("ConfigMap changed while cleaning it up, will retry", "configmap", req.NamespacedName)
	}
	return ctrl.Result{}, err
}

// client.IgnoreNotFound drops only NotFound; a conflict is still returned.
// A reconciler clears a stale scheduling annotation from a claim.
type PVCNodeHintReconciler struct {
	client.Client
}

func (r *PVCNodeHintReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	delete(pvc.Annotations, "volume.kubernetes.io/selected-node")
	err := r.Update(ctx, &pvc)
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// The deferred status write folds its error into the named result, so the
// request is requeued when it fails.
type WidgetPhaseReconciler struct {
	client.Client
}

func (r *WidgetPhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, reterr error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err := r.Status().Update(ctx, widget); err != nil {
			reterr = errors.Join(reterr, err)
		}
	}()
	widget.Status.Phase = "Running"
	return ctrl.Result{}, nil
}

// The status goes through a helper whose error is returned.
type DeploymentObservedReconciler struct {
	client.Client
}

func (r *DeploymentObservedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	deploy.Status.ObservedGeneration = deploy.Generation
	if err := kubeutil.UpdateDeploymentStatus(ctx, r.Client, &deploy); err != nil {
		return ctrl.Result{}, fmt.Errorf("status of %s: %w", req.NamespacedName, err)
	}
	return ctrl.Result{}, nil
}

// The write is inside RetryOnConflict; after the retries are exhausted the
// error is only logged, but the 409 did reach a retry.
type WidgetPauseReconciler struct {
	client.Client
}

func (r *WidgetPauseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var widget widgetsv1.Widget
		if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
			return err
		}
		widget.Spec.Paused = true
		return r.Update(ctx, &widget)
	})
	if err != nil {
		log.Error(err, "unable to pause Widget")
	}
	return ctrl.Result{}, nil
}

// A blind merge patch of one label cannot conflict; its error is dropped
// but there is no 409 to retry.
type NamespaceLabelReconciler struct {
	client.Client
}

func (r *NamespaceLabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var nsObj corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &nsObj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := nsObj.DeepCopy()
	if nsObj.Labels == nil {
		nsObj.Labels = map[string]string{}
	}
	nsObj.Labels["example.com/tenant"] = "true"
	_ = r.Patch(ctx, &nsObj, client.MergeFrom(base))
	return ctrl.Result{}, nil
}

// The object is built from scratch, not read: it has no resourceVersion to
// conflict on (unconditional-update covers it), so missing-retry does not.
type DefaultConfigReconciler struct {
	client.Client
}

func (r *DefaultConfigReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: "defaults"},
		Data:       map[string]string{"logLevel": "info"},
	}
	_ = r.Update(ctx, cm) // want "^unconditional-update: Update writes cm"
	return ctrl.Result{}, nil
}

// ignoreConflict drops a conflict: the change of a caller that returns
// what it answers is lost on a 409.
func ignoreConflict(err error) error {
	if apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// WidgetPortReconciler adds a port to a Widget and hides a conflict behind
// a helper.
type WidgetPortReconciler struct {
	client.Client
}

func (r *WidgetPortReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Spec.Ports = append(w.Spec.Ports, 8443)
	return ctrl.Result{}, ignoreConflict(r.Update(ctx, &w)) // want "^missing-retry: .*w is a read-modify-write.*conflict is caught and ignored"
}

// SecretRotationTimeReconciler stamps a rotation time through the shared
// helper of another package, which also drops conflicts.
type SecretRotationTimeReconciler struct {
	client.Client
}

func (r *SecretRotationTimeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if secret.Annotations == nil {
		secret.Annotations = map[string]string{}
	}
	secret.Annotations["example.com/rotated-at"] = time.Now().Format(time.RFC3339)
	if err := kubeutil.IgnoreConflict(r.Update(ctx, &secret)); err != nil { // want "^missing-retry: .*secret"
		return ctrl.Result{}, fmt.Errorf("stamping rotation: %w", err)
	}
	return ctrl.Result{}, nil
}

// The shared helper requeues a conflict.
type ServiceAccountLabelReconciler struct {
	client.Client
}

func (r *ServiceAccountLabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sa.Labels == nil {
		sa.Labels = map[string]string{}
	}
	sa.Labels["example.com/managed"] = "true"
	return kubeutil.RequeueOnConflict(r.Update(ctx, &sa))
}

// isConflict only tests the error; the caller returns the error either way.
func isConflict(err error) bool { return apierrors.IsConflict(err) }

type BudgetConfigReconciler struct {
	client.Client
}

func (r *BudgetConfigReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm.Data["budget"] = "1"
	err := r.Update(ctx, &cm)
	if isConflict(err) {
		log.Info("budget changed concurrently, retrying")
	}
	return ctrl.Result{}, err
}

// ClaimCleanupReconciler keeps its result in a variable that helpers
// shorten the requeue delay of, as solr-operator's reconcilers do.
type ClaimCleanupReconciler struct {
	client.Client
}

// updateRequeueAfter asks for a requeue after at most wait.
func updateRequeueAfter(result *ctrl.Result, wait time.Duration) {
	if result.RequeueAfter <= 0 || result.RequeueAfter > wait {
		result.RequeueAfter = wait
	}
}

func (r *ClaimCleanupReconciler) markReleased(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["example.com/released"] = "true"
	return r.Update(ctx, cm)
}

// The failure is logged and the result asks for a requeue in 15 seconds:
// the next pass reads the object again.
func (r *ClaimCleanupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	result := ctrl.Result{}
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return result, client.IgnoreNotFound(err)
	}
	if err := r.markReleased(ctx, &cm); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the claim released")
		updateRequeueAfter(&result, 15*time.Second)
	}
	return result, nil
}

// The same result set in place on the failure path.
func (r *ClaimCleanupReconciler) reconcileInPlace(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	result := ctrl.Result{}
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return result, client.IgnoreNotFound(err)
	}
	if err := r.markReleased(ctx, &cm); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the claim released")
		result.RequeueAfter = 15 * time.Second
	}
	return result, nil
}

// A result that a helper shortens only on success: the failure is logged
// and lost.
func (r *ClaimCleanupReconciler) reconcileRequeueOnSuccess(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	result := ctrl.Result{}
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return result, client.IgnoreNotFound(err)
	}
	if err := r.markReleased(ctx, &cm); err != nil { // want "^missing-retry: "
		logf.FromContext(ctx).Error(err, "cannot mark the claim released")
	} else {
		updateRequeueAfter(&result, time.Minute)
	}
	return result, nil
}

// The methods above are run by the controller's workers.
var _ = []any{(*ClaimCleanupReconciler).reconcileRequeueOnSuccess}

// The functions above are run by the program's workers.
var _ = []any{(*ClaimCleanupReconciler).reconcileInPlace}
