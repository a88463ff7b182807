package staleread

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"lostupdate.test/staleread/retryutil"
)

// NodeTaintController taints nodes from a node informer.
type NodeTaintController struct {
	client     kubernetes.Interface
	nodeLister corelisters.NodeLister
}

// Re-reading the Node from the lister inside RetryOnConflict: the informer has usually not seen the write that caused the 409, so every attempt resends the same stale object.
func (c *NodeTaintController) badListerGetInsideRetry(ctx context.Context, nodeName string, taint corev1.Taint) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cached, err := c.nodeLister.Get(nodeName) // want "^stale-read: "
		if err != nil {
			return err
		}
		node := cached.DeepCopy()
		node.Spec.Taints = append(node.Spec.Taints, taint)
		_, err = c.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
}

// PodReadinessController posts a readiness gate condition on pods.
type PodReadinessController struct {
	client    kubernetes.Interface
	podLister corelisters.PodLister
	queue     workqueue.TypedRateLimitingInterface[string]
}

// A namespaced lister read inside the retry feeds UpdateStatus: the retried attempts cannot see a newer pod.
func (c *PodReadinessController) badNamespacedListerInsideRetry(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		cached, err := c.podLister.Pods(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return err
		}
		pod := cached.DeepCopy()
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
			Type:   "example.com/LoadBalancerReady",
			Status: corev1.ConditionTrue,
		})
		_, err = c.client.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		return err
	})
}

// ServiceAnnotator keeps its own informer indexer and store.
type ServiceAnnotator struct {
	client  kubernetes.Interface
	indexer cache.Indexer
	store   cache.Store
}

// retry.OnError with IsConflict around an indexer read: the indexer serves the same object on every attempt.
func (c *ServiceAnnotator) badIndexerGetByKeyInsideOnError(ctx context.Context, key string) error {
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		obj, exists, err := c.indexer.GetByKey(key) // want "^stale-read: "
		if err != nil {
			return err
		}
		if !exists {
			return nil
		}
		svc := obj.(*corev1.Service).DeepCopy()
		svc.Annotations["example.com/exposed"] = "true"
		_, err = c.client.CoreV1().Services(svc.Namespace).Update(ctx, svc, metav1.UpdateOptions{})
		return err
	})
}

// A hand-written conflict loop that "refreshes" the object from the informer store between attempts.
func (c *ServiceAnnotator) badStoreGetInHandLoop(ctx context.Context, svc *corev1.Service) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		obj, exists, getErr := c.store.Get(svc) // want "^stale-read: "
		if getErr != nil || !exists {
			return getErr
		}
		latest := obj.(*corev1.Service).DeepCopy()
		latest.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
		_, err = c.client.CoreV1().Services(latest.Namespace).Update(ctx, latest, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
	}
	return err
}

// DeploymentPauser pauses Deployments through a shared lister.
type DeploymentPauser struct {
	client       kubernetes.Interface
	deployLister appslisters.DeploymentLister
}

// The retry is the shared retryutil.UpdateOnConflict wrapper in another package; the lister read inside it is still re-read on every attempt.
func (c *DeploymentPauser) badListerInsideRetryWrapper(ctx context.Context, ns, name string) error {
	return retryutil.UpdateOnConflict(func() error {
		cached, err := c.deployLister.Deployments(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = true
		_, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
		return err
	})
}

// retryutil.WithAttempts is a hand-written conflict loop in another package; the closure it retries reads from the lister.
func (c *DeploymentPauser) badListerInsideAttemptsLoop(ctx context.Context, ns, name string) error {
	return retryutil.WithAttempts(ctx, 3, func(ctx context.Context) error {
		cached, err := c.deployLister.Deployments(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = false
		_, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
		return err
	})
}

// retryOnConflict is this package's own thin wrapper over client-go's retry.
func retryOnConflict(fn func() error) error {
	return retry.RetryOnConflict(retry.DefaultRetry, fn)
}

// The same-package retry wrapper retries a closure that reads from the lister.
func (c *DeploymentPauser) badListerInsideLocalRetryWrapper(ctx context.Context, ns, name, revision string) error {
	return retryOnConflict(func() error {
		cached, err := c.deployLister.Deployments(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return err
		}
		dep := cached.DeepCopy()
		dep.Spec.Template.Annotations["example.com/revision"] = revision
		_, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
		return err
	})
}

// GenericLabeler works on any resource through a dynamic informer.
type GenericLabeler struct {
	client dynamic.Interface
	gvr    schema.GroupVersionResource
	lister cache.GenericLister
}

// borderline: cache.GenericLister (from dynamicinformer) is not named in the client table, but it is a lister over an informer indexer like the typed listers.
// A dynamic-informer controller re-reads through the GenericLister inside the conflict retry.
func (c *GenericLabeler) badGenericListerInsideRetry(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := c.lister.ByNamespace(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return err
		}
		u := obj.(*unstructured.Unstructured).DeepCopy()
		labels := u.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels["example.com/audited"] = "true"
		u.SetLabels(labels)
		_, err = c.client.Resource(c.gvr).Namespace(ns).Update(ctx, u, metav1.UpdateOptions{})
		return err
	})
}

// A merge patch guarded by the cached resourceVersion, retried on conflict while re-reading the lister: the precondition can never match a newer version.
func (c *NodeTaintController) badListerPreconditionPatchInsideRetry(ctx context.Context, nodeName, zone string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		node, err := c.nodeLister.Get(nodeName) // want "^stale-read: "
		if err != nil {
			return err
		}
		patch, err := json.Marshal(map[string]interface{}{
			"metadata": map[string]interface{}{
				"resourceVersion": node.ResourceVersion,
				"labels":          map[string]string{"topology.kubernetes.io/zone": zone},
			},
		})
		if err != nil {
			return err
		}
		_, err = c.client.CoreV1().Nodes().Patch(ctx, node.Name, types.MergePatchType, patch, metav1.PatchOptions{})
		return err
	})
}

// The sample-controller sync handler: lister read, DeepCopy, Update, error back to the work queue, which retries with a later cache state.
func (c *NodeTaintController) okListerOutsideRetry(ctx context.Context, key string) error {
	_, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := c.nodeLister.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	node := cached.DeepCopy()
	node.Labels["example.com/synced"] = "true"
	_, err = c.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	return err
}

// A work-queue worker: the namespaced lister read feeds UpdateStatus, and a conflict is requeued with rate limiting rather than retried in place.
func (c *PodReadinessController) okNamespacedListerInWorker(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		utilruntime.HandleError(err)
		c.queue.Forget(key)
		return true
	}
	cached, err := c.podLister.Pods(ns).Get(name)
	if err == nil {
		pod := cached.DeepCopy()
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: "example.com/Warm", Status: corev1.ConditionTrue})
		_, err = c.client.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	}
	if err != nil && !apierrors.IsNotFound(err) {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// An indexer read in a sync handler outside any retry.
func (c *ServiceAnnotator) okIndexerGetByKeyOutsideRetry(ctx context.Context, key string) error {
	obj, exists, err := c.indexer.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	svc := obj.(*corev1.Service).DeepCopy()
	svc.Spec.PublishNotReadyAddresses = true
	_, err = c.client.CoreV1().Services(svc.Namespace).Update(ctx, svc, metav1.UpdateOptions{})
	return err
}

// Inside the retry the lister only answers "does it still exist?"; the object written comes from a fresh Get.
func (c *DeploymentPauser) okListerExistenceCheckInsideRetry(ctx context.Context, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if _, err := c.deployLister.Deployments(ns).Get(name); apierrors.IsNotFound(err) {
			return nil
		}
		dep, err := c.client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		dep.Spec.Paused = true
		_, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
		return err
	})
}

// The cached object outside the retry only supplies the desired value; each attempt re-reads from the API server.
func (c *DeploymentPauser) okListerOutsideFreshGetInside(ctx context.Context, ns, name string) error {
	cached, err := c.deployLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	want := fmt.Sprint(cached.Generation)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		dep, err := c.client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		dep.Annotations["example.com/seen-generation"] = want
		_, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
		return err
	})
}

// retryutil.Logged runs its function once and does not retry, so this is the ordinary lister-then-update of a sync handler.
func (c *DeploymentPauser) okListerInsideNonRetryWrapper(ctx context.Context, ns, name string) error {
	return retryutil.Logged("pause", func() error {
		cached, err := c.deployLister.Deployments(ns).Get(name)
		if err != nil {
			return err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = true
		_, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
		return err
	})
}

// The first attempt reads the lister; a failed write sets refresh, and
// every later attempt reads the API server (openkruise's PUB and
// WorkloadSpread webhooks do this): only the first read may be stale.
func (c *NodeTaintController) okListerOnlyOnFirstAttempt(ctx context.Context, nodeName string, taint corev1.Taint) error {
	refresh := false
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var node *corev1.Node
		if refresh {
			live, err := c.client.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
			if err != nil {
				return err
			}
			node = live
		} else {
			cached, err := c.nodeLister.Get(nodeName)
			if err != nil {
				return err
			}
			node = cached.DeepCopy()
		}
		node.Spec.Taints = append(node.Spec.Taints, taint)
		_, err := c.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if err != nil {
			refresh = true
		}
		return err
	})
}

// The control: the flag is cleared, never set, so every attempt after a
// conflict reads the lister again.
func (c *NodeTaintController) badListerFlagNeverSet(ctx context.Context, nodeName string, taint corev1.Taint) error {
	live := false
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var node *corev1.Node
		if live {
			n, err := c.client.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
			if err != nil {
				return err
			}
			node = n
		} else {
			cached, err := c.nodeLister.Get(nodeName) // want "^stale-read: "
			if err != nil {
				return err
			}
			node = cached.DeepCopy()
		}
		node.Spec.Taints = append(node.Spec.Taints, taint)
		_, err := c.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if err == nil {
			live = false
		}
		return err
	})
}

// The control: the flag is set after a write that went through, not after
// a failed one: every attempt after a conflict reads the lister again.
func (c *NodeTaintController) badListerFlagSetOnSuccess(ctx context.Context, nodeName string, taint corev1.Taint) error {
	refresh := false
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var node *corev1.Node
		if refresh {
			live, err := c.client.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
			if err != nil {
				return err
			}
			node = live
		} else {
			cached, err := c.nodeLister.Get(nodeName) // want "^stale-read: "
			if err != nil {
				return err
			}
			node = cached.DeepCopy()
		}
		node.Spec.Taints = append(node.Spec.Taints, taint)
		_, err := c.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if err == nil {
			refresh = true
		}
		return err
	})
}

// The control: the branch on the flag only logs; the lister read after it
// runs on every attempt.
func (c *NodeTaintController) badListerAfterFlagBranch(ctx context.Context, nodeName string, taint corev1.Taint) error {
	refresh := false
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if refresh {
			klog.Infof("retrying taint of %s", nodeName)
		}
		cached, err := c.nodeLister.Get(nodeName) // want "^stale-read: "
		if err != nil {
			return err
		}
		node := cached.DeepCopy()
		node.Spec.Taints = append(node.Spec.Taints, taint)
		_, err = c.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if err != nil {
			refresh = true
		}
		return err
	})
}

// A shared retry that sleeps half a second between attempts: the informer
// has delivered the change that made the write fail by the next attempt.
func (c *DeploymentPauser) okListerInsideSleepingRetry(ctx context.Context, ns, name string) error {
	_, err := retryutil.RetryOnConflictCause(func() (any, error) {
		cached, err := c.deployLister.Deployments(ns).Get(name)
		if err != nil {
			return nil, err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = true
		return c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
	})
	return err
}

// The same retry with its half second kept in package variables that
// only their declarations set.
func (c *DeploymentPauser) okListerInsideRetryWaitingByVariable(ctx context.Context, ns, name string) error {
	_, err := retryutil.RetryOnConflictVars(func() (any, error) {
		cached, err := c.deployLister.Deployments(ns).Get(name)
		if err != nil {
			return nil, err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = true
		return c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
	})
	return err
}

// A wait in a variable that a setter can change to zero bounds nothing: the
// retry may not wait at all.
func (c *DeploymentPauser) badListerInsideRetryWaitingByTunable(ctx context.Context, ns, name string) error {
	_, err := retryutil.RetryOnConflictTunable(func() (any, error) {
		cached, err := c.deployLister.Deployments(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return nil, err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = true
		return c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
	})
	return err
}

// A poll every two seconds re-reads the lister: each attempt sees the
// latest state.
func (c *DeploymentPauser) okListerInsidePoll(ctx context.Context, ns, name string) error {
	return wait.PollUntilContextTimeout(ctx, 2*time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		cached, err := c.deployLister.Deployments(ns).Get(name)
		if err != nil {
			return false, err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = true
		if _, err := c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{}); err != nil {
			if apierrors.IsConflict(err) {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
}

// A hand-written loop that sleeps 10 ms between attempts: the next attempt
// reads the same cached Deployment.
func (c *DeploymentPauser) badListerInsideShortSleepLoop(ctx context.Context, ns, name string) error {
	var err error
	for i := 0; i < 5; i++ {
		var cached *appsv1.Deployment
		cached, err = c.deployLister.Deployments(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = true
		if _, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
	return err
}

// A loop that sleeps only after other errors: a conflict goes round at
// once and re-reads the same cached Deployment.
func (c *DeploymentPauser) badListerConflictRetriedAtOnce(ctx context.Context, ns, name string) error {
	var err error
	for i := 0; i < 5; i++ {
		var cached *appsv1.Deployment
		cached, err = c.deployLister.Deployments(ns).Get(name) // want "^stale-read: "
		if err != nil {
			return err
		}
		dep := cached.DeepCopy()
		dep.Spec.Paused = true
		_, err = c.client.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{})
		if err == nil {
			return nil
		}
		if apierrors.IsConflict(err) {
			continue
		}
		time.Sleep(2 * time.Second)
	}
	return err
}

// The methods above are run by the controller's workers.
var _ = []any{(*DeploymentPauser).badListerConflictRetriedAtOnce, (*DeploymentPauser).badListerInsideAttemptsLoop, (*DeploymentPauser).badListerInsideLocalRetryWrapper, (*DeploymentPauser).badListerInsideRetryWaitingByTunable, (*DeploymentPauser).badListerInsideRetryWrapper, (*DeploymentPauser).badListerInsideShortSleepLoop, (*GenericLabeler).badGenericListerInsideRetry, (*NodeTaintController).badListerAfterFlagBranch, (*NodeTaintController).badListerFlagNeverSet, (*NodeTaintController).badListerFlagSetOnSuccess, (*NodeTaintController).badListerGetInsideRetry, (*NodeTaintController).badListerPreconditionPatchInsideRetry, (*PodReadinessController).badNamespacedListerInsideRetry, (*ServiceAnnotator).badIndexerGetByKeyInsideOnError, (*ServiceAnnotator).badStoreGetInHandLoop}

// The functions above are run by the program's workers.
var _ = []any{(*DeploymentPauser).okListerExistenceCheckInsideRetry, (*DeploymentPauser).okListerInsideNonRetryWrapper, (*DeploymentPauser).okListerInsidePoll, (*DeploymentPauser).okListerInsideRetryWaitingByVariable, (*DeploymentPauser).okListerInsideSleepingRetry, (*DeploymentPauser).okListerOutsideFreshGetInside, (*NodeTaintController).okListerOnlyOnFirstAttempt, (*NodeTaintController).okListerOutsideRetry, (*PodReadinessController).okNamespacedListerInWorker, (*ServiceAnnotator).okIndexerGetByKeyOutsideRetry}
