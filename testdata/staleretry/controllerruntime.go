package staleretry

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/staleretry/retryutil"
)

// DeploymentScalerReconciler reads the Deployment at the top of Reconcile and
// retries only the Update: a conflict is resent with the same resourceVersion.
type DeploymentScalerReconciler struct {
	client.Client
	Replicas int32
}

func (r *DeploymentScalerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		deploy.Spec.Replicas = &r.Replicas
		return r.Update(ctx, &deploy) // want "^stale-retry: .*deploy"
	})
	return ctrl.Result{}, err
}

// JobReconciler hands the Job it read to a status helper that retries the
// status write of its parameter without re-reading it.
type JobReconciler struct {
	client.Client
}

func (r *JobReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var job batchv1.Job
	if err := r.Get(ctx, req.NamespacedName, &job); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if job.Status.Succeeded == 0 {
		return ctrl.Result{RequeueAfter: 30 * time.Second}, nil
	}
	return ctrl.Result{}, r.markArchived(ctx, &job)
}

func (r *JobReconciler) markArchived(ctx context.Context, job *batchv1.Job) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		job.Status.Conditions = append(job.Status.Conditions, batchv1.JobCondition{
			Type:   "example.com/Archived",
			Status: corev1.ConditionTrue,
			Reason: "Succeeded",
		})
		return r.Status().Update(ctx, job) // want "^stale-retry: .*job"
	})
}

// ServiceAccountReconciler uses the operator's own retry wrapper from another
// package, around an object read before it.
type ServiceAccountReconciler struct {
	client.Client
	PullSecret string
}

func (r *ServiceAccountReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	sa := &corev1.ServiceAccount{}
	if err := r.Get(ctx, req.NamespacedName, sa); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := retryutil.OnConflict(ctx, func() error {
		sa.ImagePullSecrets = append(sa.ImagePullSecrets, corev1.LocalObjectReference{Name: r.PullSecret})
		return r.Update(ctx, sa) // want "^stale-retry: .*sa"
	})
	return ctrl.Result{}, err
}

// IngressStatusReconciler retries a status helper method with the Ingress it
// read before the retry; the helper writes its argument as is.
type IngressStatusReconciler struct {
	client.Client
	LoadBalancerIP string
}

func (r *IngressStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ing networkingv1.Ingress
	if err := r.Get(ctx, req.NamespacedName, &ing); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ing.Status.LoadBalancer.Ingress = []networkingv1.IngressLoadBalancerIngress{{IP: r.LoadBalancerIP}}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return r.writeStatus(ctx, &ing) // want "^stale-retry: "
	})
	return ctrl.Result{}, err
}

func (r *IngressStatusReconciler) writeStatus(ctx context.Context, ing *networkingv1.Ingress) error {
	return r.Status().Update(ctx, ing)
}

// ConfigMapLabelReconciler re-reads into the captured object at the start of
// every attempt (r.Get into the same pointer), so each Update carries the
// version just read.
type ConfigMapLabelReconciler struct {
	client.Client
}

func (r *ConfigMapLabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels["example.com/managed"] == "true" {
		return ctrl.Result{}, nil
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, client.ObjectKeyFromObject(cm), cm); err != nil {
			return err
		}
		if cm.Labels == nil {
			cm.Labels = map[string]string{}
		}
		cm.Labels["example.com/managed"] = "true"
		return r.Update(ctx, cm)
	})
	return ctrl.Result{}, err
}

// PVCStatusReconciler fetches the claim inside the operator's retry wrapper
// before writing its status.
type PVCStatusReconciler struct {
	client.Client
}

func (r *PVCStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retryutil.OnConflict(ctx, func() error {
		var pvc corev1.PersistentVolumeClaim
		if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil {
			return err
		}
		pvc.Status.Conditions = append(pvc.Status.Conditions, corev1.PersistentVolumeClaimCondition{
			Type:   "example.com/Resized",
			Status: corev1.ConditionTrue,
		})
		return r.Status().Update(ctx, &pvc)
	})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// ServiceReconciler re-reads through its own fetch method inside the retry.
type ServiceReconciler struct {
	client.Client
}

func (r *ServiceReconciler) fetch(ctx context.Context, key types.NamespacedName) (*corev1.Service, error) {
	svc := &corev1.Service{}
	if err := r.Get(ctx, key, svc); err != nil {
		return nil, err
	}
	return svc, nil
}

func (r *ServiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		svc, err := r.fetch(ctx, req.NamespacedName)
		if err != nil {
			return err
		}
		svc.Spec.PublishNotReadyAddresses = true
		return r.Update(ctx, svc)
	})
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, err
}

// borderline: the merge patch without an optimistic lock never gets a 409, so
// wrapping it in RetryOnConflict is useless but it resends no stale version.
// A reconciler sets a constant label with a merge patch inside a retry.
type NodeLabelReconciler struct {
	client.Client
}

func (r *NodeLabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var node corev1.Node
	if err := r.Get(ctx, req.NamespacedName, &node); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		base := node.DeepCopy()
		if node.Labels == nil {
			node.Labels = map[string]string{}
		}
		node.Labels["example.com/pool"] = "default"
		return r.Patch(ctx, &node, client.MergeFrom(base))
	})
	return ctrl.Result{}, err
}

// A deadline wrapper runs the write once; it is not a conflict retry, so the
// object read outside it is written once and a 409 is returned.
type ServiceAccountAuditor struct {
	client.Client
}

func (r *ServiceAccountAuditor) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sa.Annotations == nil {
		sa.Annotations = map[string]string{}
	}
	sa.Annotations["example.com/audited"] = "true"
	err := retryutil.WithTimeout(ctx, 5*time.Second, func(ctx context.Context) error {
		return r.Update(ctx, &sa)
	})
	return ctrl.Result{}, err
}

// ignoreAlreadyMigrated: a conflict means another writer already rewrote
// the object.
func ignoreAlreadyMigrated(err error) error {
	if apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// migrateStorageVersion rewrites every listed object in a retry of its own;
// the retried function turns a conflict into success, so a stale
// resourceVersion is never resent.
func migrateStorageVersion(ctx context.Context, c client.Client, ns string) error {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range list.Items {
		cm := &list.Items[i]
		if err := retry.RetryOnConflict(retry.DefaultBackoff, func() error {
			return ignoreAlreadyMigrated(c.Update(ctx, cm))
		}); err != nil {
			return err
		}
	}
	return nil
}

// The same retry without the conflict check resends the stale object.
func migrateStorageVersionRetryingConflicts(ctx context.Context, c client.Client, ns string) error {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range list.Items {
		cm := &list.Items[i]
		if err := retry.RetryOnConflict(retry.DefaultBackoff, func() error {
			return c.Update(ctx, cm) // want "^stale-retry: "
		}); err != nil {
			return err
		}
	}
	return nil
}

// The functions above are run by the controller's workers.
var _ = []any{migrateStorageVersionRetryingConflicts}

// The functions above are run by the program's workers.
var _ = []any{migrateStorageVersion}

// StatefulSetRollback scales a StatefulSet down, waits for its pods, and
// scales it back when a check fails. Each retried function fetches the
// StatefulSet again on every attempt and keeps the copy it fetched in the
// variable the caller passed, which the wait between the retries refills:
// the second retry still writes the copy it fetched, not the one the wait
// read.
type StatefulSetRollback struct {
	client.Client
	Check func() error
}

func (r *StatefulSetRollback) fetch(ctx context.Context, key types.NamespacedName) (*appsv1.StatefulSet, error) {
	found := &appsv1.StatefulSet{}
	if err := r.Get(ctx, key, found); err != nil {
		return nil, err
	}
	return found, nil
}

// waitReady polls the StatefulSet until its pods are ready, reading it
// again into st each time.
func (r *StatefulSetRollback) waitReady(ctx context.Context, st *appsv1.StatefulSet) error {
	for i := 0; i < 10; i++ {
		if err := r.Get(ctx, client.ObjectKeyFromObject(st), st); err != nil {
			return err
		}
		if st.Status.ReadyReplicas == *st.Spec.Replicas {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

func (r *StatefulSetRollback) scaleDown(ctx context.Context, found *appsv1.StatefulSet, by int32) (*appsv1.StatefulSet, error) {
	key := client.ObjectKeyFromObject(found)
	target := *found.Spec.Replicas - by
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current, err := r.fetch(ctx, key)
		if err != nil {
			return err
		}
		current.Spec.Replicas = &target
		found = current
		return r.Update(ctx, current)
	}); err != nil {
		return found, err
	}
	if err := r.waitReady(ctx, found); err != nil {
		return found, err
	}
	if r.Check() != nil {
		back := *found.Spec.Replicas + by
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			current, err := r.fetch(ctx, key)
			if err != nil {
				return err
			}
			current.Spec.Replicas = &back
			found = current
			return r.Update(ctx, current)
		}); err != nil {
			return found, err
		}
	}
	return found, r.waitReady(ctx, found)
}

// scaleDownStale is the same, but its second retry writes the copy the
// wait read, outside the retry, on every attempt.
func (r *StatefulSetRollback) scaleDownStale(ctx context.Context, found *appsv1.StatefulSet, by int32) (*appsv1.StatefulSet, error) {
	key := client.ObjectKeyFromObject(found)
	target := *found.Spec.Replicas - by
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current, err := r.fetch(ctx, key)
		if err != nil {
			return err
		}
		current.Spec.Replicas = &target
		found = current
		return r.Update(ctx, current)
	}); err != nil {
		return found, err
	}
	if err := r.waitReady(ctx, found); err != nil {
		return found, err
	}
	if r.Check() != nil {
		back := *found.Spec.Replicas + by
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			found.Spec.Replicas = &back
			return r.Update(ctx, found) // want "^stale-retry: .*found"
		}); err != nil {
			return found, err
		}
	}
	return found, r.waitReady(ctx, found)
}

var _ = []any{(*StatefulSetRollback).scaleDown, (*StatefulSetRollback).scaleDownStale}
