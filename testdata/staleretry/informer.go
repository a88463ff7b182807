package staleretry

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
)

// RolloutController is an informer-based controller in the style of
// sample-controller: listers for reads, a rate-limited work queue for keys.
type RolloutController struct {
	kubeclient   kubernetes.Interface
	deployLister appslisters.DeploymentLister
	secretLister corelisters.SecretLister
	podIndexer   cache.Indexer
	queue        workqueue.TypedRateLimitingInterface[string]
}

// The sync handler copies the cached Deployment once, before the retry; each
// attempt resends the cached resourceVersion.
func (c *RolloutController) badSyncDeploymentCopiedBeforeRetry(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := c.deployLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	deploy := cached.DeepCopy()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		deploy.Spec.Paused = false
		_, err := c.kubeclient.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{}) // want "^stale-retry: .*deploy"
		return err
	})
}

// A pod status syncer takes the pod out of an indexer by key and retries the
// status write of that one copy.
func (c *RolloutController) badSyncPodFromIndexerBeforeRetry(ctx context.Context, key string) error {
	item, exists, err := c.podIndexer.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	pod := item.(*corev1.Pod).DeepCopy()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
			Type:   "example.com/RolloutReady",
			Status: corev1.ConditionTrue,
		})
		_, err := c.kubeclient.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{}) // want "^stale-retry: .*pod"
		return err
	})
}

// The lister only decides whether there is work; the retry reads the
// Deployment from the API server before writing it.
func (c *RolloutController) okListerGateThenGetInsideRetry(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := c.deployLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	if !cached.Spec.Paused {
		return nil
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		deploy, err := c.kubeclient.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		deploy.Spec.Paused = false
		_, err = c.kubeclient.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{})
		return err
	})
}

// borderline: the retry re-reads from the lister, which may keep serving the
// same stale object (stale-read reports that); the write is of an object read
// inside the retried function, so it is not a stale-retry.
// A secret syncer re-reads from its lister on every attempt.
func (c *RolloutController) okListerReadInsideRetry(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cached, err := c.secretLister.Secrets(ns).Get(name) // want "^stale-read: lister/informer Get inside retry.RetryOnConflict"
		if err != nil {
			return err
		}
		secret := cached.DeepCopy()
		if secret.Annotations == nil {
			secret.Annotations = map[string]string{}
		}
		secret.Annotations["example.com/synced"] = "true"
		_, err = c.kubeclient.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
		return err
	})
}

// processNextWorkItem is the usual work-queue loop; the sync error requeues
// the key with rate limiting.
func (c *RolloutController) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.okListerGateThenGetInsideRetry(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		fmt.Printf("error syncing %q: %v\n", key, err)
		return true
	}
	c.queue.Forget(key)
	return true
}

// The methods above are run by the controller's workers.
var _ = []any{(*RolloutController).badSyncDeploymentCopiedBeforeRetry, (*RolloutController).badSyncPodFromIndexerBeforeRetry, (*RolloutController).okListerReadInsideRetry}

// The functions above are run by the program's workers.
var _ = []any{(*RolloutController).processNextWorkItem}
