package unboundedretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// NodeLabelController is a classic informer controller: workers drain a
// rate-limited work queue.
type NodeLabelController struct {
	client     kubernetes.Interface
	nodeLister corelisters.NodeLister
	queue      workqueue.TypedRateLimitingInterface[string]
}

// runWorker loops for the life of the controller, one key at a time. It is
// not a conflict retry: a conflicting key goes back to the queue with
// rate-limited backoff.
func (c *NodeLabelController) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

func (c *NodeLabelController) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *NodeLabelController) sync(ctx context.Context, key string) error {
	_, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	node, err := c.client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	node.Labels["example.com/managed"] = "true"
	_, err = c.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	return err
}

// labelPendingPods walks the cached Pods and labels each one; a conflict on
// one Pod is left to the next informer event, the walk moves on.
func (c *NodeLabelController) labelPendingPods(ctx context.Context, pods []*corev1.Pod) error {
	for _, cached := range pods {
		pod := cached.DeepCopy()
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels["example.com/pending"] = "true"
		_, err := c.client.CoreV1().Pods(pod.Namespace).Update(ctx, pod, metav1.UpdateOptions{}) // want "^missing-retry: Update of pod .*caught and ignored"
		if apierrors.IsConflict(err) {
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// The methods above are run by the controller's workers.
var _ = []any{(*NodeLabelController).labelPendingPods}

// The functions above are run by the program's workers.
var _ = []any{(*NodeLabelController).runWorker}
