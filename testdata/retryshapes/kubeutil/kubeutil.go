// want package:"has summaries"

// Package kubeutil holds the retry wrappers and patch helpers an operator
// shares between its controllers.
package kubeutil

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// UntilNoConflict runs fn again, a little later each time, for as long as
// it fails with a conflict, five times at most.
func UntilNoConflict(ctx context.Context, fn func() error) error { // want UntilNoConflict:"retries #1 on conflict"
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = fn(); !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// OnConflict runs fn with retry.OnError, on conflicts only.
func OnConflict(ctx context.Context, fn func() error) error { // want OnConflict:"retries #1 on conflict"
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, fn)
}

// Persistently runs fn again, after a pause, whatever its error, three times
// at most.
func Persistently(fn func() error) error { // want Persistently:"retries #0 on conflict"
	err := fn()
	for i := 0; i < 3 && err != nil; i++ {
		time.Sleep(time.Second)
		err = fn()
	}
	return err
}

// BackoffOnConflict runs fn in a wait.ExponentialBackoff whose condition
// asks for another attempt on a conflict.
func BackoffOnConflict(fn func() error) error { // want BackoffOnConflict:"retries #0 on conflict"
	backoff := wait.Backoff{Steps: 5, Duration: 50 * time.Millisecond, Factor: 2}
	return wait.ExponentialBackoff(backoff, func() (bool, error) {
		err := fn()
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// Once runs fn once and wraps its error; it does not retry.
func Once(name string, fn func() error) error {
	if err := fn(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// GuardedLabelPatch builds a JSON patch that sets a label of the Node only
// if the Node is still at the resourceVersion read.
func GuardedLabelPatch(node *corev1.Node, key, value string) ([]byte, error) { // want GuardedLabelPatch:"returns a JSON patch #0"
	return json.Marshal([]map[string]any{
		{"op": "test", "path": "/metadata/resourceVersion", "value": node.ResourceVersion},
		{"op": "add", "path": "/metadata/labels/" + key, "value": value},
	})
}

// PatchNodeTaints sends the taints of newNode as a strategic merge patch
// of oldNode that carries oldNode's resourceVersion (taints have no merge
// key: the patch replaces the whole list, so it must fail if the Node
// changed since oldNode was read).
func PatchNodeTaints(ctx context.Context, c kubernetes.Interface, nodeName string, oldNode, newNode *corev1.Node) error { // want PatchNodeTaints:"feeds #3 to patch"
	oldNodeNoRV := oldNode.DeepCopy()
	oldNodeNoRV.ResourceVersion = ""
	oldDataNoRV, err := json.Marshal(oldNodeNoRV)
	if err != nil {
		return err
	}
	newNodeClone := oldNode.DeepCopy()
	newNodeClone.Spec.Taints = newNode.Spec.Taints
	newData, err := json.Marshal(newNodeClone)
	if err != nil {
		return err
	}
	patchBytes, err := strategicpatch.CreateTwoWayMergePatch(oldDataNoRV, newData, corev1.Node{})
	if err != nil {
		return err
	}
	_, err = c.CoreV1().Nodes().Patch(ctx, nodeName, types.StrategicMergePatchType, patchBytes, metav1.PatchOptions{})
	return err
}
