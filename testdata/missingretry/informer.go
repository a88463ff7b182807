package missingretry

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// ImageController is an informer-based controller in the style of
// sample-controller: listers for reads, a rate-limited work queue for keys.
type ImageController struct {
	kubeclient   kubernetes.Interface
	deployLister appslisters.DeploymentLister
	cmLister     corelisters.ConfigMapLister
	queue        workqueue.TypedRateLimitingInterface[string]
	image        string
}

// The sync handler reports the Update failure to HandleError and returns
// nil, so the worker forgets the key and the change is never retried.
func (c *ImageController) badSyncHandledErrorReturnsNil(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := c.deployLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	deploy := cached.DeepCopy()
	deploy.Spec.Template.Spec.Containers[0].Image = c.image
	if _, err := c.kubeclient.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*deploy"
		utilruntime.HandleError(fmt.Errorf("updating image of %s: %w", key, err))
	}
	return nil
}

// An informer UpdateFunc writes the object straight from the event handler;
// a handler cannot return an error, so the failure is only logged.
func (c *ImageController) badUpdateFromEventHandler(ctx context.Context) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj interface{}) {
			cm := newObj.(*corev1.ConfigMap).DeepCopy()
			if cm.Labels["example.com/managed"] == "true" {
				return
			}
			if cm.Labels == nil {
				cm.Labels = map[string]string{}
			}
			cm.Labels["example.com/managed"] = "true"
			if _, err := c.kubeclient.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*cm"
				klog.ErrorS(err, "Failed to label ConfigMap", "configmap", klog.KObj(cm))
			}
		},
	}
}

// The sync handler returns the Update's error; processNextWorkItem requeues
// the key with rate limiting.
func (c *ImageController) okSyncReturnsError(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := c.deployLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	deploy := cached.DeepCopy()
	deploy.Spec.Template.Spec.Containers[0].Image = c.image
	_, err = c.kubeclient.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{})
	return err
}

func (c *ImageController) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.okSyncReturnsError(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing", "key", key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// The sync handler re-adds its key to the rate-limited queue when the
// Update fails, then logs; the queue brings the key back for a fresh sync.
func (c *ImageController) okSyncRequeuesKeyOnError(ctx context.Context, key string) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return
	}
	cached, err := c.cmLister.ConfigMaps(ns).Get(name)
	if err != nil {
		return
	}
	cm := cached.DeepCopy()
	cm.Data["image"] = c.image
	if _, err := c.kubeclient.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		c.queue.AddRateLimited(key)
		klog.ErrorS(err, "Failed to record image, requeued", "key", key)
		return
	}
	c.queue.Forget(key)
}

// The methods above are run by the controller's workers.
var _ = []any{(*ImageController).badSyncHandledErrorReturnsNil, (*ImageController).badUpdateFromEventHandler}

// The functions above are run by the program's workers.
var _ = []any{(*ImageController).okSyncRequeuesKeyOnError, (*ImageController).processNextWorkItem}
