// Package retryshapes holds the shapes of conflict retries that are not
// RetryOnConflict itself: loops that retry every error, counters that a
// conflict does not advance, timer loops and polls on contexts with and
// without a deadline, the package's own retry wrappers and those of another
// package, and reads served from the watch cache that reach a write through
// a patch helper.
package retryshapes

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
)

// NodeLabeler labels Nodes from an event handler, which has no error to
// return.
type NodeLabeler struct {
	cs kubernetes.Interface
}

// markSeen records on the Node, with a blind patch of one constant
// annotation, that the labeler has seen it.
func (l *NodeLabeler) markSeen(ctx context.Context, name string) {
	patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{"example.com/seen": "true"}}})
	if _, err := l.cs.CoreV1().Nodes().Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		klog.ErrorS(err, "Cannot mark the node as seen", "node", name)
	}
}

// relabelFresh reads the Node again and sets the label in a conflict
// retry.
func (l *NodeLabeler) relabelFresh(ctx context.Context, name, pool string) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		node, err := l.cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		node.Labels["example.com/pool"] = pool
		_, err = l.cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		klog.ErrorS(err, "Cannot label the node", "node", name)
	}
}

// The failed Update is only logged; the annotation patch after it runs
// whether the Update failed or not, so it retries nothing.
func (l *NodeLabeler) onNodeAddLoggedThenOtherWrite(ctx context.Context, name, pool string) {
	node, err := l.cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	node.Labels["example.com/pool"] = pool
	if _, err := l.cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: Update of node .*only logged"
		klog.ErrorS(err, "Cannot label the node", "node", name)
	}
	l.markSeen(ctx, name)
}

// The same with the Update's error dropped.
func (l *NodeLabeler) onNodeAddDroppedThenOtherWrite(ctx context.Context, name, pool string) {
	node, err := l.cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	node.Labels["example.com/pool"] = pool
	_, _ = l.cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want "^missing-retry: Update of node .*dropped"
	l.markSeen(ctx, name)
}

// The failed Update is handed to a function that reads the Node again and
// retries: the conflict reaches a retry.
func (l *NodeLabeler) onNodeAddFailureRetried(ctx context.Context, name, pool string) {
	node, err := l.cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	node.Labels["example.com/pool"] = pool
	if _, err := l.cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil {
		klog.V(2).InfoS("Node changed while labelling, reading it again", "node", name, "err", err)
		l.relabelFresh(ctx, name, pool)
	}
}

// The same with the success path leaving first.
func (l *NodeLabeler) onNodeAddFailureRetriedAfterCheck(ctx context.Context, name, pool string) {
	node, err := l.cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	node.Labels["example.com/pool"] = pool
	_, err = l.cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	if err == nil {
		return
	}
	l.relabelFresh(ctx, name, pool)
}

var _ = corev1.Node{}

// The methods above are run by the controller's workers.
var _ = []any{(*NodeLabeler).onNodeAddDroppedThenOtherWrite, (*NodeLabeler).onNodeAddLoggedThenOtherWrite}

// The functions above are run by the program's workers.
var _ = []any{(*NodeLabeler).onNodeAddFailureRetried, (*NodeLabeler).onNodeAddFailureRetriedAfterCheck}
