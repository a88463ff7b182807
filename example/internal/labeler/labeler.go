// Package labeler marks the nodes and pods a guestbook runs on, with the
// typed clientset.
package labeler

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// MarkNode labels a node as hosting a guestbook.
func MarkNode(ctx context.Context, cs kubernetes.Interface, name string) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	// Bug: the node is read once, before the retry; every attempt resends
	// the same stale resourceVersion, so a conflict can never be resolved.
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if node.Labels == nil {
			node.Labels = map[string]string{}
		}
		node.Labels["example.com/guestbook"] = "true"
		_, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
}

// MarkPods labels every pod of a guestbook.
func MarkPods(ctx context.Context, cs kubernetes.Interface, ns, app string) error {
	// Bug: ResourceVersion "0" lets the API server answer from its watch
	// cache; the pods written back may be arbitrarily old.
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{
		LabelSelector:   "app=" + app,
		ResourceVersion: "0",
	})
	if err != nil {
		return err
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels["example.com/marked"] = "true"
		if _, err := cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}
