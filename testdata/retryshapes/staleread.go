package retryshapes

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"lostupdate.test/retryshapes/kubeutil"
)

// patchNodeLabels sends the difference between two versions of a Node's
// labels as a strategic merge patch.
func patchNodeLabels(ctx context.Context, c kubernetes.Interface, nodeName string, oldNode, newNode *corev1.Node) error {
	oldData, err := json.Marshal(oldNode)
	if err != nil {
		return err
	}
	newData, err := json.Marshal(newNode)
	if err != nil {
		return err
	}
	patchBytes, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, corev1.Node{})
	if err != nil {
		return err
	}
	_, err = c.CoreV1().Nodes().Patch(ctx, nodeName, types.StrategicMergePatchType, patchBytes, metav1.PatchOptions{})
	return err
}

// A taint added to a Node read from the watch cache, sent by another
// package's patch helper: the patch is the difference from a version that
// may be long gone.
func badCacheReadThroughTaintHelper(ctx context.Context, cs kubernetes.Interface, nodeName string, taint corev1.Taint) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: Get with ResourceVersion \"0\" .* feeds the patch PatchNodeTaints sends"
	if err != nil {
		return err
	}
	newNode := node.DeepCopy()
	newNode.Spec.Taints = append(newNode.Spec.Taints, taint)
	return kubeutil.PatchNodeTaints(ctx, cs, nodeName, node, newNode)
}

// The same read, sent by this package's helper.
func badCacheReadThroughLocalHelper(ctx context.Context, cs kubernetes.Interface, nodeName, pool string) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: Get with ResourceVersion \"0\" .* feeds the patch patchNodeLabels sends"
	if err != nil {
		return err
	}
	newNode := node.DeepCopy()
	newNode.Labels["example.com/pool"] = pool
	return patchNodeLabels(ctx, cs, nodeName, node, newNode)
}

// A read from etcd sent by the same helper.
func okFreshReadThroughTaintHelper(ctx context.Context, cs kubernetes.Interface, nodeName string, taint corev1.Taint) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	newNode := node.DeepCopy()
	newNode.Spec.Taints = append(newNode.Spec.Taints, taint)
	return kubeutil.PatchNodeTaints(ctx, cs, nodeName, node, newNode)
}

// The first attempt reads the Node from the watch cache, which is cheaper;
// the patch carries its resourceVersion, so a stale Node fails with a
// conflict and the next attempt reads from etcd.
func okFirstTryFromCacheInRetry(ctx context.Context, cs kubernetes.Interface, nodeName string, taint corev1.Taint) error {
	firstTry := true
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		opts := metav1.GetOptions{}
		if firstTry {
			opts.ResourceVersion = "0"
			firstTry = false
		}
		oldNode, err := cs.CoreV1().Nodes().Get(ctx, nodeName, opts)
		if err != nil {
			return err
		}
		newNode := oldNode.DeepCopy()
		newNode.Spec.Taints = append(newNode.Spec.Taints, taint)
		return kubeutil.PatchNodeTaints(ctx, cs, nodeName, oldNode, newNode)
	})
}

// The same branch on a flag that is never cleared: every attempt reads the
// cache.
func badCacheEveryAttemptInRetry(ctx context.Context, cs kubernetes.Interface, nodeName string, taint corev1.Taint, fromCache bool) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		opts := metav1.GetOptions{}
		if fromCache {
			opts.ResourceVersion = "0"
		}
		oldNode, err := cs.CoreV1().Nodes().Get(ctx, nodeName, opts) // want "^stale-read: Get with ResourceVersion \"0\" .* feeds the patch PatchNodeTaints sends"
		if err != nil {
			return err
		}
		newNode := oldNode.DeepCopy()
		newNode.Spec.Taints = append(newNode.Spec.Taints, taint)
		return kubeutil.PatchNodeTaints(ctx, cs, nodeName, oldNode, newNode)
	})
}

// The first attempt from the cache with an Update, which carries the
// resourceVersion read.
func okFirstTryFromCacheUpdate(ctx context.Context, cs kubernetes.Interface, nodeName string) error {
	firstTry := true
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		opts := metav1.GetOptions{}
		if firstTry {
			opts.ResourceVersion = "0"
			firstTry = false
		}
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, opts)
		if err != nil {
			return err
		}
		node.Spec.Unschedulable = true
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
}

// The first attempt from the cache, outside any retry: nothing reads
// again.
func badFirstTryFlagWithoutRetry(ctx context.Context, cs kubernetes.Interface, nodeName string, cheap bool) error {
	opts := metav1.GetOptions{}
	if cheap {
		opts.ResourceVersion = "0"
		cheap = false
	}
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, opts) // want "^stale-read: Get with ResourceVersion \"0\" .* feeds Update of node"
	if err != nil {
		return err
	}
	node.Spec.Unschedulable = true
	_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badCacheEveryAttemptInRetry, badCacheReadThroughLocalHelper, badCacheReadThroughTaintHelper, badFirstTryFlagWithoutRetry}

// The functions above are run by the program's workers.
var _ = []any{okFirstTryFromCacheInRetry, okFirstTryFromCacheUpdate, okFreshReadThroughTaintHelper}
