package staleretry

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// isRetryableAPIError is the predicate kubernetes' test utils define (and
// operators copy): true only for transient failures, never for a conflict.
func isRetryableAPIError(err error) bool {
	if err == nil {
		return false
	}
	if apierrors.IsInternalError(err) || apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err) ||
		apierrors.IsTooManyRequests(err) || utilnet.IsProbableEOF(err) || utilnet.IsConnectionReset(err) {
		return true
	}
	if _, shouldRetry := apierrors.SuggestsClientDelay(err); shouldRetry {
		return true
	}
	return false
}

// A poll that resends a copy only after a transient failure: a conflict
// ends it with the error, so it is no conflict retry and the copy made
// before it is not a stale retry.
func okPollRetriesTransientErrors(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	cmCopy := cm.DeepCopy()
	return wait.PollUntilContextTimeout(ctx, 3*time.Second, 30*time.Second, false, func(ctx context.Context) (bool, error) {
		_, err := cs.CoreV1().ConfigMaps(cmCopy.Namespace).Update(ctx, cmCopy, metav1.UpdateOptions{})
		if err == nil {
			return true, nil
		}
		if !isRetryableAPIError(err) {
			return false, err
		}
		return false, nil
	})
}

// retryableOrConflict is true for a conflict as well.
func retryableOrConflict(err error) bool {
	return isRetryableAPIError(err) || apierrors.IsConflict(err)
}

// The same poll with a predicate that is true for a conflict too: every
// attempt resends the version read before the poll.
func badPollRetriesConflictsToo(ctx context.Context, cs kubernetes.Interface, name string) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	node.Labels["example.com/drained"] = "true"
	return wait.PollUntilContextTimeout(ctx, 3*time.Second, 30*time.Second, false, func(ctx context.Context) (bool, error) {
		_, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want "^stale-retry: .*node"
		if err == nil {
			return true, nil
		}
		if !retryableOrConflict(err) {
			return false, err
		}
		return false, nil
	})
}

// The functions above are run by the operator.
var _ = []any{okPollRetriesTransientErrors, badPollRetriesConflictsToo}

// deployOnce updates the config it is given, with a deadline of its own.
func deployOnce(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// A loop that goes round again only when an attempt ran out of time: a
// conflict ends it with the error, so it is no conflict retry.
func okLoopRetriesDeadlines(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.Data = map[string]string{"revision": "2"}
	for i := 0; i < 3; i++ {
		if err := deployOnce(ctx, cs, cm); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				continue
			}
			return err
		}
		break
	}
	return nil
}

// The control: the loop goes round on every error but a missing object,
// conflicts included.
func badLoopRetriesAllButNotFound(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.Data = map[string]string{"revision": "2"}
	for i := 0; i < 3; i++ {
		if err := deployOnce(ctx, cs, cm); err != nil { // want "^stale-retry: .*cm"
			if apierrors.IsNotFound(err) {
				return err
			}
			time.Sleep(time.Second)
			continue
		}
		break
	}
	return nil
}

var _ = []any{okLoopRetriesDeadlines, badLoopRetriesAllButNotFound}
