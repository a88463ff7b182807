package retryshapes

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"lostupdate.test/retryshapes/kubeutil"
)

// A JSON patch guarded by a test op, built by another package, retried by
// a wrapper of RetryOnConflict: a failed test is a 422, which the wrapper
// does not retry.
func badGuardedPatchInWrapper(ctx context.Context, cs kubernetes.Interface, nodeName, pool string) error {
	return kubeutil.OnConflict(ctx, func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch, err := kubeutil.GuardedLabelPatch(node, "example.com~1pool", pool)
		if err != nil {
			return err
		}
		_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, patch, metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// The same patch in a wait.ExponentialBackoff whose condition retries
// conflicts.
func badGuardedPatchInBackoff(ctx context.Context, cs kubernetes.Interface, nodeName, pool string) error {
	backoff := wait.Backoff{Steps: 5, Duration: 50 * time.Millisecond, Factor: 2}
	return wait.ExponentialBackoff(backoff, func() (bool, error) {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		patch, err := kubeutil.GuardedLabelPatch(node, "example.com~1pool", pool)
		if err != nil {
			return false, err
		}
		_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, patch, metav1.PatchOptions{}) // want "^test-op-retry: "
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// The condition retries the 422 of a failed test as well.
func okGuardedPatchInBackoffOnInvalid(ctx context.Context, cs kubernetes.Interface, nodeName, pool string) error {
	backoff := wait.Backoff{Steps: 5, Duration: 50 * time.Millisecond, Factor: 2}
	return wait.ExponentialBackoff(backoff, func() (bool, error) {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		patch, err := kubeutil.GuardedLabelPatch(node, "example.com~1pool", pool)
		if err != nil {
			return false, err
		}
		_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, patch, metav1.PatchOptions{})
		if apierrors.IsConflict(err) || apierrors.IsInvalid(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// retry.OnError on conflicts and on the 422 of a failed test.
func okGuardedPatchOnConflictOrInvalid(ctx context.Context, cs kubernetes.Interface, nodeName, pool string) error {
	retriable := func(err error) bool { return apierrors.IsConflict(err) || apierrors.IsInvalid(err) }
	return retry.OnError(retry.DefaultRetry, retriable, func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch, err := kubeutil.GuardedLabelPatch(node, "example.com~1pool", pool)
		if err != nil {
			return err
		}
		_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, patch, metav1.PatchOptions{})
		return err
	})
}

// The same patch in another package's wrapper of wait.ExponentialBackoff,
// whose condition retries conflicts only.
func badGuardedPatchInBackoffWrapper(ctx context.Context, cs kubernetes.Interface, nodeName, pool string) error {
	return kubeutil.BackoffOnConflict(func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch, err := kubeutil.GuardedLabelPatch(node, "example.com~1pool", pool)
		if err != nil {
			return err
		}
		_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, patch, metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// A wrapper that retries every error retries the 422 of a failed test too.
func okGuardedPatchInEveryErrorWrapper(ctx context.Context, cs kubernetes.Interface, nodeName, pool string) error {
	return kubeutil.Persistently(func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch, err := kubeutil.GuardedLabelPatch(node, "example.com~1pool", pool)
		if err != nil {
			return err
		}
		_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, patch, metav1.PatchOptions{})
		return err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badGuardedPatchInBackoff, badGuardedPatchInBackoffWrapper, badGuardedPatchInWrapper}

// The functions above are run by the program's workers.
var _ = []any{okGuardedPatchInBackoffOnInvalid, okGuardedPatchInEveryErrorWrapper, okGuardedPatchOnConflictOrInvalid}
