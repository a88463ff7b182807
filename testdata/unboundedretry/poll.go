package unboundedretry

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// A node labeler polls forever (PollInfinite) and treats a conflict as "not
// done yet".
func badPollInfiniteOnConflict(ctx context.Context, cs kubernetes.Interface, nodeName, zone string) error {
	return wait.PollInfinite(time.Second, func() (bool, error) {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		node.Labels["topology.kubernetes.io/zone"] = zone
		if _, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil { // want "^unbounded-retry: "
			if apierrors.IsConflict(err) {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
}

// A merge patch with the resourceVersion read as its precondition, polled
// with PollImmediateInfinite until it stops conflicting.
func badPollImmediateInfinitePatch(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return wait.PollImmediateInfinite(500*time.Millisecond, func() (bool, error) {
		deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		patch := fmt.Sprintf(`{"metadata":{"resourceVersion":%q},"spec":{"replicas":%d}}`, deploy.ResourceVersion, *deploy.Spec.Replicas+1)
		_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}) // want "^unbounded-retry: "
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// A bootstrap step polls with PollUntilContextCancel on a context that can be
// cancelled but has no deadline.
func badPollUntilContextCancelNoDeadline(cs kubernetes.Interface, ns, name string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["bootstrapped"] = "true"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// A controller's Run loop polls with its stop channel, which only closes at
// shutdown.
func badPollUntilStopChannel(ctx context.Context, cs kubernetes.Interface, ns, name string, stopCh <-chan struct{}) error {
	return wait.PollUntil(2*time.Second, func() (bool, error) {
		secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if secret.Annotations == nil {
			secret.Annotations = map[string]string{}
		}
		secret.Annotations["example.com/synced"] = "true"
		_, err = cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		switch {
		case apierrors.IsConflict(err):
			return false, nil
		case err != nil:
			return false, err
		}
		return true, nil
	}, stopCh)
}

// wait.ExponentialBackoff: the conflict retry is bounded by the backoff's
// Steps.
func okExponentialBackoffOnConflict(ctx context.Context, cs kubernetes.Interface, nodeName, zone string) error {
	backoff := wait.Backoff{Steps: 5, Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.1}
	return wait.ExponentialBackoff(backoff, func() (bool, error) {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		node.Labels["topology.kubernetes.io/zone"] = zone
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// ExponentialBackoffWithContext: bounded by Steps, and by the context.
func okExponentialBackoffWithContext(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	backoff := wait.Backoff{Steps: 8, Duration: 50 * time.Millisecond, Factor: 1.5, Cap: time.Second}
	return wait.ExponentialBackoffWithContext(ctx, backoff, func(ctx context.Context) (bool, error) {
		deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		deploy.Spec.Paused = true
		_, err = cs.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// PollUntilContextTimeout: the poll gives up after two minutes.
func okPollUntilContextTimeout(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["bootstrapped"] = "true"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// PollUntilContextCancel on a context with a timeout: bounded by its
// deadline.
func okPollUntilContextCancelWithTimeout(cs kubernetes.Interface, ns, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if secret.Annotations == nil {
			secret.Annotations = map[string]string{}
		}
		secret.Annotations["example.com/synced"] = "true"
		_, err = cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// A periodic resync with wait.UntilWithContext runs until shutdown by
// design; a conflict is left for the next period, nothing spins. Each
// period reads the ConfigMap again, so the logged conflict is retried then
// (not a missing-retry either).
func okPeriodicResync(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	wait.UntilWithContext(ctx, func(ctx context.Context) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["heartbeat"] = time.Now().UTC().Format(time.RFC3339)
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			klog.FromContext(ctx).Error(err, "Heartbeat not written, the next period tries again", "configMap", klog.KRef(ns, name))
		}
	}, 30*time.Second)
}

// The functions above are run by the controller's workers.
var _ = []any{badPollImmediateInfinitePatch, badPollInfiniteOnConflict, badPollUntilContextCancelNoDeadline, badPollUntilStopChannel, okPeriodicResync}

// The functions above are run by the program's workers.
var _ = []any{okExponentialBackoffOnConflict, okExponentialBackoffWithContext, okPollUntilContextCancelWithTimeout, okPollUntilContextTimeout}
