package unboundedretry

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// retryTries runs fn until it succeeds, three times at most, without
// waiting between attempts.
func retryTries(fn func() error) error {
	var err error
	for try := 1; try <= 3; try++ {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// An annotation set with a merge patch of metadata built here, which
// carries no resourceVersion: the patch cannot get a 409, so the loop
// around it does not retry conflicts.
func annotateNode(ctx context.Context, cs kubernetes.Interface, name, key, value string) error {
	body := metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{key: value}}}
	data, err := json.Marshal(&body)
	if err != nil {
		return err
	}
	return retryTries(func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if node.Annotations[key] == value {
			return nil
		}
		_, err = cs.CoreV1().Nodes().Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{})
		return err
	})
}

// The positive control: an Update of the object read, which does get a
// 409, retried without a wait.
func labelNode(ctx context.Context, cs kubernetes.Interface, name, key, value string) error {
	return retryTries(func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		node.Labels[key] = value
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		return err
	})
}

var _ = []any{annotateNode, labelNode, corev1.NodeSpec{}}

// A patch whose body the analysis cannot read (bytes its exported caller's
// callers give): it most likely carries no precondition, and so no 409 for
// the loop to retry.
func AnnotateNodeWith(ctx context.Context, cs kubernetes.Interface, name string, data []byte) error {
	return retryTries(func() error {
		_, err := cs.CoreV1().Nodes().Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{})
		return err
	})
}
