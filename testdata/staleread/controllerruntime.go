package staleread

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// CacheGetReconciler reads its object through the API reader with RV=0.
type CacheGetReconciler struct {
	client.Client
	APIReader client.Reader
}

// A reconciler that asks the API server for the watch-cache copy through Raw GetOptions and then updates it.
func (r *CacheGetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var dep appsv1.Deployment
	if err := r.APIReader.Get(ctx, req.NamespacedName, &dep, &client.GetOptions{Raw: &metav1.GetOptions{ResourceVersion: "0"}}); err != nil { // want "^stale-read: "
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if controllerutil.AddFinalizer(&dep, "example.com/cleanup") {
		return ctrl.Result{}, r.Update(ctx, &dep)
	}
	return ctrl.Result{}, nil
}

// Ingresses listed from the watch cache are each patched with MergeFrom a copy of the cached item.
func badCacheListThenMergeFromPatch(ctx context.Context, c client.Client, ns, className string) error {
	var list networkingv1.IngressList
	if err := c.List(ctx, &list, client.InNamespace(ns), &client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: "0"}}); err != nil { // want "^stale-read: "
		return err
	}
	for i := range list.Items {
		ing := &list.Items[i]
		base := ing.DeepCopy()
		ing.Spec.IngressClassName = &className
		if err := c.Patch(ctx, ing, client.MergeFrom(base)); err != nil {
			return err
		}
	}
	return nil
}

// A status writer fetches the object from the watch cache and writes its status subresource.
func badCacheGetThenStatusUpdate(ctx context.Context, c client.Client, key types.NamespacedName) error {
	job := &batchv1.Job{}
	opts := &client.GetOptions{Raw: &metav1.GetOptions{ResourceVersion: "0"}}
	if err := c.Get(ctx, key, job, opts); err != nil { // want "^stale-read: "
		return err
	}
	job.Status.Conditions = append(job.Status.Conditions, batchv1.JobCondition{
		Type:   "example.com/Archived",
		Status: corev1.ConditionTrue,
	})
	return c.Status().Update(ctx, job)
}

// Exporting a gauge from a watch-cache list writes nothing.
func okCacheListForMetrics(ctx context.Context, c client.Client, record func(ns string, n int)) error {
	var pods corev1.PodList
	if err := c.List(ctx, &pods, &client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: "0"}}); err != nil {
		return err
	}
	perNamespace := map[string]int{}
	for _, p := range pods.Items {
		if p.Status.Phase == corev1.PodPending {
			perNamespace[p.Namespace]++
		}
	}
	for ns, n := range perNamespace {
		record(ns, n)
	}
	return nil
}

// Garbage collection of orphaned ConfigMaps listed from the watch cache: Delete does not write the stale object back.
func okCacheListThenDeleteOrphans(ctx context.Context, c client.Client, ns string) error {
	var cms corev1.ConfigMapList
	opts := &client.ListOptions{
		Namespace: ns,
		Raw:       &metav1.ListOptions{ResourceVersion: "0", LabelSelector: "example.com/generated=true"},
	}
	if err := c.List(ctx, &cms, opts); err != nil {
		return err
	}
	for i := range cms.Items {
		if len(cms.Items[i].OwnerReferences) > 0 {
			continue
		}
		log.FromContext(ctx).Info("deleting orphan", "configmap", cms.Items[i].Name)
		if err := c.Delete(ctx, &cms.Items[i]); client.IgnoreNotFound(err) != nil {
			return err
		}
	}
	return nil
}

// borderline: a manager's default client may serve Get from its informer cache, but the spec treats client.Reader.Get without RV=0 as a fresh read; only listers and stores count as cache reads.
// The common operator retry: re-Get with the controller-runtime client inside RetryOnConflict, then update.
func okReconcilerGetInsideRetry(ctx context.Context, c client.Client, key types.NamespacedName) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var sts appsv1.StatefulSet
		if err := c.Get(ctx, key, &sts); err != nil {
			return err
		}
		if sts.Labels == nil {
			sts.Labels = map[string]string{}
		}
		sts.Labels["example.com/backup"] = "enabled"
		return c.Update(ctx, &sts)
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badCacheGetThenStatusUpdate, badCacheListThenMergeFromPatch}

// The functions above are run by the program's workers.
var _ = []any{okCacheListForMetrics, okCacheListThenDeleteOrphans, okReconcilerGetInsideRetry}
