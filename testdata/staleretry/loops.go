package staleretry

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/staleretry/retryutil"
)

// updateWithConflictRetry is this package's own retry wrapper: it runs fn
// again, after a short sleep, while fn fails with a conflict.
func updateWithConflictRetry(ctx context.Context, fn func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = fn(ctx); !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// A hand-written retry loop that continues on conflict, around a ConfigMap
// read before the loop: every iteration resends the same version.
func badHandWrittenLoopReadBeforeLoop(ctx context.Context, cs kubernetes.Interface, ns, name, value string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 5; attempt++ {
		cm.Data["leader"] = value
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^stale-retry: .*cm"
		if apierrors.IsConflict(err) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		return err
	}
	return err
}

// A node taint helper retries with wait.ExponentialBackoff, returning
// (false, nil) on a conflict, but writes the Node read before the backoff.
func badExponentialBackoffNodeReadBeforeRetry(ctx context.Context, cs kubernetes.Interface, nodeName string, taint corev1.Taint) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	node.Spec.Taints = append(node.Spec.Taints, taint)
	backoff := wait.Backoff{Steps: 5, Duration: 100 * time.Millisecond, Factor: 2}
	return wait.ExponentialBackoff(backoff, func() (bool, error) {
		_, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want "^stale-retry: .*node"
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// A poll with a timeout whose condition retries conflicts, writing the
// Namespace read before the poll.
func badPollUntilTimeoutNamespaceReadBeforePoll(ctx context.Context, cs kubernetes.Interface, name string) error {
	nsObj, err := cs.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	nsObj.Labels["pod-security.kubernetes.io/enforce"] = "restricted"
	return wait.PollUntilContextTimeout(ctx, time.Second, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		if _, err := cs.CoreV1().Namespaces().Update(ctx, nsObj, metav1.UpdateOptions{}); err != nil { // want "^stale-retry: .*nsObj"
			if apierrors.IsConflict(err) {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
}

// The package's own retry wrapper around a write of an object read outside.
func badSamePackageWrapperReadBeforeRetry(ctx context.Context, cs kubernetes.Interface, ns, name string, hard corev1.ResourceList) error {
	quota, err := cs.CoreV1().ResourceQuotas(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	quota.Spec.Hard = hard
	return updateWithConflictRetry(ctx, func(ctx context.Context) error {
		_, err := cs.CoreV1().ResourceQuotas(ns).Update(ctx, quota, metav1.UpdateOptions{}) // want "^stale-retry: .*quota"
		return err
	})
}

// The attempt-counting wrapper from another package, around a
// PersistentVolume passed in by the caller.
func badAttemptsWrapperWithParameter(ctx context.Context, cs kubernetes.Interface, pv *corev1.PersistentVolume) error {
	return retryutil.Attempts(ctx, 3, func(ctx context.Context) error {
		pv.Spec.PersistentVolumeReclaimPolicy = corev1.PersistentVolumeReclaimRetain
		_, err := cs.CoreV1().PersistentVolumes().Update(ctx, pv, metav1.UpdateOptions{}) // want "^stale-retry: .*pv"
		return err
	})
}

// A hand-written retry loop that fetches the object at the top of every
// iteration.
func okHandWrittenLoopGetsEachAttempt(ctx context.Context, cs kubernetes.Interface, ns, name, value string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var cm *corev1.ConfigMap
		cm, err = cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["leader"] = value
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

// The first read is before the loop, but a conflict re-reads before the next
// iteration, so no version is resent.
func okLoopReReadsOnConflict(ctx context.Context, cs kubernetes.Interface, nodeName string) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 5; attempt++ {
		node.Spec.Unschedulable = true
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
		node, err = cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
	}
	return err
}

// The ExponentialBackoff condition fetches the Node before writing it.
func okExponentialBackoffGetInsideCondition(ctx context.Context, cs kubernetes.Interface, nodeName string, taint corev1.Taint) error {
	backoff := wait.Backoff{Steps: 5, Duration: 100 * time.Millisecond, Factor: 2}
	return wait.ExponentialBackoffWithContext(ctx, backoff, func(ctx context.Context) (bool, error) {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		node.Spec.Taints = append(node.Spec.Taints, taint)
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// The package's own retry wrapper with the read inside the retried function.
func okSamePackageWrapperGetInside(ctx context.Context, cs kubernetes.Interface, ns, name string, hard corev1.ResourceList) error {
	return updateWithConflictRetry(ctx, func(ctx context.Context) error {
		quota, err := cs.CoreV1().ResourceQuotas(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		quota.Spec.Hard = hard
		_, err = cs.CoreV1().ResourceQuotas(ns).Update(ctx, quota, metav1.UpdateOptions{})
		return err
	})
}

// The poll condition re-reads the object after a failed write, so the next
// attempt sends the version it just read.
func okPollRereadsAfterFailedUpdate(ctx context.Context, c client.Client, key client.ObjectKey) error {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, key, &cm); err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		cm.Data["ready"] = "true"
		err := c.Update(ctx, &cm)
		if err == nil {
			return true, nil
		}
		if !apierrors.IsConflict(err) {
			return false, err
		}
		if err := c.Get(ctx, key, &cm); err != nil {
			return false, err
		}
		return false, nil
	})
}

// migrateOnce writes cm, or a copy it reads first when asked to: the
// storage-version migrator's try. It tells its caller to re-read after a
// conflict.
func migrateOnce(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap, reread bool) (bool, error) {
	var err error
	if reread {
		cm, err = cs.CoreV1().ConfigMaps(cm.Namespace).Get(ctx, cm.Name, metav1.GetOptions{})
		if err != nil {
			return true, err
		}
	}
	_, err = cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	if err == nil {
		return false, nil
	}
	return apierrors.IsConflict(err), err
}

// The loop hands the object read before it to a helper that re-reads it on
// the attempts after a conflict: only the first attempt sends that version.
func okLoopHelperRereadsAfterConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	reread := false
	for attempt := 0; attempt < 5; attempt++ {
		reread, err = migrateOnce(ctx, cs, cm, reread)
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// writeOnce writes cm as it is passed, whatever its caller asks.
func writeOnce(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap, reread bool) (bool, error) {
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	if err == nil {
		return false, nil
	}
	return apierrors.IsConflict(err) && reread, err
}

// The same loop around a helper that never re-reads: every attempt resends
// the version read before the loop.
func badLoopHelperNeverRereads(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	reread := false
	for attempt := 0; attempt < 5; attempt++ {
		reread, err = writeOnce(ctx, cs, cm, reread) // want "^stale-retry: .*cm"
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badAttemptsWrapperWithParameter, badLoopHelperNeverRereads, badExponentialBackoffNodeReadBeforeRetry, badHandWrittenLoopReadBeforeLoop, badPollUntilTimeoutNamespaceReadBeforePoll, badSamePackageWrapperReadBeforeRetry}

// The functions above are run by the program's workers.
var _ = []any{okExponentialBackoffGetInsideCondition, okHandWrittenLoopGetsEachAttempt, okLoopHelperRereadsAfterConflict, okLoopReReadsOnConflict, okPollRereadsAfterFailedUpdate, okSamePackageWrapperGetInside}

// writeStatusOrRefresh writes the status it is given onto ns and, on a
// conflict, onto a copy it reads again (a second UpdateStatus call): the
// cluster operator status helper's shape.
func writeStatusOrRefresh(ctx context.Context, cs kubernetes.Interface, ns *corev1.Namespace, status corev1.NamespaceStatus) (*corev1.Namespace, error) {
	next := ns.DeepCopy()
	next.Status = status
	out, err := cs.CoreV1().Namespaces().UpdateStatus(ctx, next, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		fresh, getErr := cs.CoreV1().Namespaces().Get(ctx, ns.Name, metav1.GetOptions{})
		if getErr != nil {
			return ns, getErr
		}
		next = fresh.DeepCopy()
		next.Status = status
		out, err = cs.CoreV1().Namespaces().UpdateStatus(ctx, next, metav1.UpdateOptions{})
	}
	if err != nil {
		return ns, err
	}
	return out, nil
}

// A poll around that helper, with the object read before it: the helper
// re-reads after a conflict, so the poll does not resend a stale version.
func okPollStatusHelperRefreshesOnConflict(ctx context.Context, cs kubernetes.Interface, name string) error {
	ns, err := cs.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, false, func(ctx context.Context) (bool, error) {
		status := *ns.Status.DeepCopy()
		status.Phase = corev1.NamespaceActive
		if ns, err = writeStatusOrRefresh(ctx, cs, ns, status); err != nil {
			return false, nil
		}
		return true, nil
	})
}

// A helper whose second write is of another object it reads (the
// namespace's default ServiceAccount): the namespace is written only as
// passed.
func writeStatusAndTouchAccount(ctx context.Context, cs kubernetes.Interface, ns *corev1.Namespace) error {
	if _, err := cs.CoreV1().Namespaces().UpdateStatus(ctx, ns, metav1.UpdateOptions{}); err != nil {
		return err
	}
	sa, err := cs.CoreV1().ServiceAccounts(ns.Name).Get(ctx, "default", metav1.GetOptions{})
	if err != nil {
		return err
	}
	sa.Labels = map[string]string{"touched": "true"}
	_, err = cs.CoreV1().ServiceAccounts(ns.Name).Update(ctx, sa, metav1.UpdateOptions{})
	return err
}

func badPollStatusHelperNeverRefreshes(ctx context.Context, cs kubernetes.Interface, name string) error {
	ns, err := cs.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, false, func(ctx context.Context) (bool, error) {
		ns.Status.Phase = corev1.NamespaceActive
		if err := writeStatusAndTouchAccount(ctx, cs, ns); err != nil { // want "^stale-retry: .*ns"
			return false, nil
		}
		return true, nil
	})
}

var _ = []any{okPollStatusHelperRefreshesOnConflict, badPollStatusHelperNeverRefreshes}
