// Package cr holds the shapes of controller-runtime's client before v0.13:
// Reader.Get(ctx, key, obj) without options, and the StatusWriter of
// Status() (before SubResourceWriter), whose methods take the options of
// the main resource.
package cr

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Reconciler keeps the objects of an app.
type Reconciler struct {
	client.Client
}

// The object read is written back: the PUT carries its resourceVersion.
func (r *Reconciler) okGetThenUpdate(ctx context.Context, req ctrl.Request) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return err
	}
	cm.Data = map[string]string{"owner": "operator"}
	return r.Update(ctx, cm)
}

// A ConfigMap built from the request and PUT over the live one.
func (r *Reconciler) badUpdateOfBuiltConfigMap(ctx context.Context, req ctrl.Request) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace},
		Data:       map[string]string{"owner": "operator"},
	}
	return r.Update(ctx, cm) // want "^unconditional-update: "
}

// The resourceVersion read, copied into the desired object, makes the PUT
// conditional.
func (r *Reconciler) okCopyResourceVersionRead(ctx context.Context, req ctrl.Request) error {
	existing := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, existing); err != nil {
		return err
	}
	desired := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace},
		Data:       map[string]string{"owner": "operator"},
	}
	desired.ResourceVersion = existing.ResourceVersion
	return r.Update(ctx, desired)
}

// The resourceVersion read is cleared: the PUT overwrites.
func (r *Reconciler) badUpdateAfterClearingResourceVersion(ctx context.Context, key types.NamespacedName) error {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, key, &cm); err != nil {
		return err
	}
	cm.Labels = map[string]string{"owner": "operator"}
	cm.SetResourceVersion("")
	return r.Update(ctx, &cm) // want "^unconditional-update: "
}

// Status().Update of a built Service replaces the status others wrote.
func (r *Reconciler) badStatusUpdateOfBuiltService(ctx context.Context, req ctrl.Request, ip string) error {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace}}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: ip}}
	return r.Status().Update(ctx, svc) // want "^unconditional-update: "
}

// Status().Update of the Service read.
func (r *Reconciler) okStatusUpdateOfReadService(ctx context.Context, req ctrl.Request, ip string) error {
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil {
		return err
	}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: ip}}
	return r.Status().Update(ctx, svc)
}

// A finalizer added and sent with a merge patch from the object read: the
// patch replaces the whole list.
func (r *Reconciler) badMergePatchOfFinalizers(ctx context.Context, req ctrl.Request) error {
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil {
		return err
	}
	base := pod.DeepCopy()
	controllerutil.AddFinalizer(pod, "example.com/cleanup")
	return r.Patch(ctx, pod, client.MergeFrom(base)) // want "^unconditional-patch: "
}

// The same patch with the optimistic lock carries the resourceVersion.
func (r *Reconciler) okMergePatchOfFinalizersWithLock(ctx context.Context, req ctrl.Request) error {
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil {
		return err
	}
	base := pod.DeepCopy()
	controllerutil.AddFinalizer(pod, "example.com/cleanup")
	return r.Patch(ctx, pod, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// A condition appended to the status read and sent with a merge patch of
// the status subresource through the StatusWriter: the list is replaced.
func (r *Reconciler) badStatusMergePatchOfConditions(ctx context.Context, req ctrl.Request) error {
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil {
		return err
	}
	base := pod.DeepCopy()
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: "example.com/Ready", Status: corev1.ConditionTrue})
	return r.Status().Patch(ctx, pod, client.MergeFrom(base)) // want "^unconditional-patch: "
}

// The same status patch with the optimistic lock.
func (r *Reconciler) okStatusMergePatchOfConditionsWithLock(ctx context.Context, req ctrl.Request) error {
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil {
		return err
	}
	base := pod.DeepCopy()
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: "example.com/Ready", Status: corev1.ConditionTrue})
	return r.Status().Patch(ctx, pod, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// Inside the retry, the Update resends the object read once before it.
func (r *Reconciler) badStaleRetry(ctx context.Context, req ctrl.Request) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm.Data = map[string]string{"owner": "operator"}
		return r.Update(ctx, cm) // want "^stale-retry: "
	})
}

// The retry re-reads the object each time.
func (r *Reconciler) okFreshRetry(ctx context.Context, req ctrl.Request) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm := &corev1.ConfigMap{}
		if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
			return err
		}
		cm.Data = map[string]string{"owner": "operator"}
		return r.Update(ctx, cm)
	})
}

// The methods above are run by the controller's workers.
var _ = []interface{}{(*Reconciler).badMergePatchOfFinalizers, (*Reconciler).badStaleRetry, (*Reconciler).badStatusMergePatchOfConditions, (*Reconciler).badStatusUpdateOfBuiltService, (*Reconciler).badUpdateAfterClearingResourceVersion, (*Reconciler).badUpdateOfBuiltConfigMap}

// The methods above are run by the controller's workers.
var _ = []interface{}{(*Reconciler).okCopyResourceVersionRead, (*Reconciler).okFreshRetry, (*Reconciler).okGetThenUpdate, (*Reconciler).okMergePatchOfFinalizersWithLock, (*Reconciler).okStatusMergePatchOfConditionsWithLock, (*Reconciler).okStatusUpdateOfReadService}
