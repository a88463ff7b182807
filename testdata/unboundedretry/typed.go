package unboundedretry

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

// A leader annotation writer re-reads and updates until it stops getting
// conflicts: on a hot ConfigMap it never stops, and it never waits.
func badForeverLoopContinueOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name, holder string) error {
	for {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations["example.com/leader"] = holder
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		if apierrors.IsConflict(err) {
			continue
		}
		return err
	}
}

// A counted loop that retries the status write on conflict right away: five
// attempts burnt in a few milliseconds against the same hot object.
func badCountedLoopWithoutWait(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	var err error
	for i := 0; i < 5; i++ {
		var pod *corev1.Pod
		pod, err = cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: "example.com/Drained", Status: corev1.ConditionTrue})
		_, err = cs.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return err
}

// A loop with a sleep but no attempt bound and no deadline: it backs off,
// yet retries a contended Node forever.
func badUnboundedAttemptsWithSleep(ctx context.Context, cs kubernetes.Interface, nodeName string) error {
	for attempt := 1; ; attempt++ {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		node.Spec.Unschedulable = true
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
	}
}

// A label writer that jumps back to its read with goto on a conflict.
func badGotoRetryOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
retry:
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if secret.Labels == nil {
		secret.Labels = map[string]string{}
	}
	secret.Labels["example.com/rotated"] = "true"
	if _, err := cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}); err != nil { // want "^unbounded-retry: "
		if apierrors.IsConflict(err) {
			goto retry
		}
		return err
	}
	return nil
}

// borderline: the loop is bounded by a deadline, but without a wait it sends
// back-to-back writes to the API server for the whole ten seconds.
// A deadline loop that retries conflicts without waiting between attempts.
func badDeadlineLoopWithoutWait(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		sa, err := cs.CoreV1().ServiceAccounts(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		sa.AutomountServiceAccountToken = ptr.To(false)
		_, err = cs.CoreV1().ServiceAccounts(ns).Update(ctx, sa, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		if apierrors.IsConflict(err) {
			continue
		}
		return err
	}
	return fmt.Errorf("updating ServiceAccount %s/%s: still conflicting at the deadline", ns, name)
}

// retryUntilNoConflict is this package's own retry helper: it runs fn again,
// at once, for as long as fn fails with a conflict.
func retryUntilNoConflict(fn func() error) error {
	for {
		err := fn()
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// The endpoint writer wraps its read-modify-write in that helper.
func badUpdateInUnboundedHelper(ctx context.Context, cs kubernetes.Interface, ns, name string, addr corev1.EndpointAddress) error {
	return retryUntilNoConflict(func() error {
		ep, err := cs.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if len(ep.Subsets) == 0 {
			ep.Subsets = []corev1.EndpointSubset{{}}
		}
		ep.Subsets[0].Addresses = append(ep.Subsets[0].Addresses, addr)
		_, err = cs.CoreV1().Endpoints(ns).Update(ctx, ep, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		return err
	})
}

// The standard fix: RetryOnConflict with DefaultRetry (five steps, short
// exponential backoff).
func okRetryOnConflictDefaultRetry(ctx context.Context, cs kubernetes.Interface, ns, name, holder string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations["example.com/leader"] = holder
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// RetryOnConflict with a custom, bounded backoff.
func okRetryOnConflictCustomBackoff(ctx context.Context, cs kubernetes.Interface, nodeName string) error {
	backoff := wait.Backoff{Steps: 10, Duration: 50 * time.Millisecond, Factor: 1.5, Jitter: 0.2, Cap: 2 * time.Second}
	return retry.RetryOnConflict(backoff, func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		node.Spec.Unschedulable = true
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
}

// retry.OnError with IsConflict and DefaultBackoff.
func okOnErrorConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: "example.com/Drained", Status: corev1.ConditionTrue})
		_, err = cs.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		return err
	})
}

// A counted loop that sleeps longer after each conflict.
func okCountedLoopWithSleep(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var secret *corev1.Secret
		secret, err = cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if secret.Labels == nil {
			secret.Labels = map[string]string{}
		}
		secret.Labels["example.com/rotated"] = "true"
		_, err = cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(1<<attempt) * 50 * time.Millisecond)
	}
	return err
}

// A counted loop that waits on a timer or gives up when the context ends.
func okCountedLoopSelectTimer(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	const maxAttempts = 4
	for attempt := 1; ; attempt++ {
		sa, err := cs.CoreV1().ServiceAccounts(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		sa.AutomountServiceAccountToken = ptr.To(false)
		_, err = cs.CoreV1().ServiceAccounts(ns).Update(ctx, sa, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) || attempt == maxAttempts {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
		}
	}
}

// A loop driven by a wait.Backoff: Steps bound it and Step() spaces the
// attempts.
func okBackoffStepsLoop(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	backoff := wait.Backoff{Steps: 6, Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.1}
	var err error
	for backoff.Steps > 0 {
		var svc *corev1.Service
		svc, err = cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		svc.Spec.ExternalIPs = append(svc.Spec.ExternalIPs, "192.0.2.10")
		_, err = cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(backoff.Step())
	}
	return err
}

// A deadline loop that sleeps between attempts.
func okDeadlineLoopWithSleep(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data["phase"] = "migrated"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(250 * time.Millisecond)
	}
	return fmt.Errorf("updating ConfigMap %s/%s: timed out", ns, name)
}

// Cordoning every Node of a pool: a conflict on one Node moves on to the
// next one and is reported at the end; nothing is retried.
func okRangeContinueOnConflict(ctx context.Context, cs kubernetes.Interface, pool string) error {
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "example.com/pool=" + pool})
	if err != nil {
		return err
	}
	var skipped []string
	for i := range nodes.Items {
		node := &nodes.Items[i]
		node.Spec.Unschedulable = true
		if _, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil {
			if apierrors.IsConflict(err) {
				skipped = append(skipped, node.Name)
				continue
			}
			return err
		}
	}
	if len(skipped) > 0 {
		return fmt.Errorf("nodes changed while cordoning, run again: %v", skipped)
	}
	return nil
}

// The functions above are run by the controller's workers.
var _ = []any{badBoundedConflictTestWithoutWait, badCountedLoopWithoutWait, badDeadlineLoopWithoutWait, badForeverLoopContinueOnConflict, badGotoRetryOnConflict, badUnboundedAttemptsWithSleep, badUpdateInUnboundedHelper}

// The functions above are run by the program's workers.
var _ = []any{okBackoffStepsLoop, okBoundedConflictTestWithSleep, okCountedLoopSelectTimer, okCountedLoopWithSleep, okDeadlineLoopWithSleep, okOnErrorConflict, okRangeContinueOnConflict, okRetryOnConflictCustomBackoff, okRetryOnConflictDefaultRetry}

// The attempt bound and the conflict test in one condition: once the
// attempts are spent, a conflict falls through to the error return. Bounded,
// but it re-reads and resends right away.
func badBoundedConflictTestWithoutWait(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	attempt := 0
	for {
		attempt++
		cm.Data = map[string]string{"phase": "Ready"}
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by a retry loop that does not wait between attempts"
		if err == nil {
			return nil
		}
		if attempt < 10 && apierrors.IsConflict(err) {
			var current *corev1.ConfigMap
			current, err = cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
			if err == nil {
				cm = current
				continue
			}
		}
		if err != nil {
			return err
		}
	}
}

// The same bound, with a growing wait before each new attempt: not reported.
func okBoundedConflictTestWithSleep(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	attempt := 0
	for {
		attempt++
		cm.Data = map[string]string{"phase": "Ready"}
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if err == nil {
			return nil
		}
		if attempt < 10 && apierrors.IsConflict(err) {
			time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
			var current *corev1.ConfigMap
			current, err = cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
			if err == nil {
				cm = current
				continue
			}
		}
		if err != nil {
			return err
		}
	}
}
