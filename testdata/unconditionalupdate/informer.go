package unconditionalupdate

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// ListerDeepCopyController is a classic informer controller: a lister, a work queue, and a sync handler.
type ListerDeepCopyController struct {
	client       kubernetes.Interface
	deployLister appslisters.DeploymentLister
	queue        workqueue.TypedRateLimitingInterface[string]
}

// The sample-controller shape: read from the lister, DeepCopy, update, return the error to the queue; the cached object carries a resourceVersion.
func (c *ListerDeepCopyController) syncHandler(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := c.deployLister.Deployments(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	dep := cached.DeepCopy()
	if dep.Annotations == nil {
		dep.Annotations = map[string]string{}
	}
	dep.Annotations["example.com/replicas"] = fmt.Sprint(dep.Status.ReadyReplicas)
	_, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
	return err
}

// IndexerDeepCopyController works off a raw informer indexer.
type IndexerDeepCopyController struct {
	client  kubernetes.Interface
	indexer cache.Indexer
}

// An object fetched from an informer's indexer by key, copied, and written back: a cache read has a resourceVersion.
func (c *IndexerDeepCopyController) sync(ctx context.Context, key string) error {
	obj, exists, err := c.indexer.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	pod := obj.(*corev1.Pod).DeepCopy()
	kept := pod.Finalizers[:0]
	for _, f := range pod.Finalizers {
		if f != "example.com/cleanup" {
			kept = append(kept, f)
		}
	}
	pod.Finalizers = kept
	_, err = c.client.CoreV1().Pods(pod.Namespace).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// The functions above are run by the program's workers.
var _ = []any{(*IndexerDeepCopyController).sync, (*ListerDeepCopyController).syncHandler}
