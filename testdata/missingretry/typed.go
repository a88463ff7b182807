package missingretry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"lostupdate.test/missingretry/kubeutil"
)

// A CLI-style "touch" discards both results of the Update.
func badTouchConfigMapDiscardsResult(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/touched"] = time.Now().UTC().Format(time.RFC3339)
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^missing-retry: .*cm"
}

// A node labeller logs the failure with klog and moves on; it returns
// nothing, so no caller can retry.
func badLabelNodeOnlyLogged(ctx context.Context, cs kubernetes.Interface, nodeName, zone string) {
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		klog.ErrorS(err, "Failed to get node", "node", nodeName)
		return
	}
	node.Labels["topology.kubernetes.io/zone"] = zone
	if _, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*node"
		klog.ErrorS(err, "Failed to label node", "node", nodeName)
	}
}

// A helper returns every error but a conflict, which it reports as success.
func badConflictSwallowedAsSuccess(ctx context.Context, cs kubernetes.Interface, ns, name, image string) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	deploy.Spec.Template.Spec.Containers[0].Image = image
	_, err = cs.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{}) // want "^missing-retry: .*deploy"
	if apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// A bulk relabel over a List: a failed Update is logged and the loop
// continues, so the item is never written again.
func badBulkRelabelContinuesPastFailure(ctx context.Context, cs kubernetes.Interface, ns string) error {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		return err
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		pod.Labels["example.com/tier"] = "frontend"
		if _, err := cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*pod"
			klog.InfoS("Skipping pod", "pod", klog.KObj(pod), "err", err)
			continue
		}
	}
	return nil
}

// A shared helper returns the error, but this caller throws it away.
func badHelperErrorDiscarded(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	_ = kubeutil.SetAnnotation(ctx, cs, cm, "example.com/last-seen", time.Now().UTC().Format(time.RFC3339)) // want "^missing-retry: "
}

// LeaseHolder renews a Lease it keeps in a field; a failed renew is only
// logged and the stale object is kept for the next tick.
type LeaseHolder struct {
	client   kubernetes.Interface
	lease    *coordinationv1.Lease
	identity string
}

func (l *LeaseHolder) badRenewOnlyLogged(ctx context.Context) {
	now := metav1.NewMicroTime(time.Now())
	l.lease.Spec.RenewTime = &now
	l.lease.Spec.HolderIdentity = &l.identity
	if _, err := l.client.CoordinationV1().Leases(l.lease.Namespace).Update(ctx, l.lease, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*lease"
		klog.Errorf("failed to renew lease %s/%s: %v", l.lease.Namespace, l.lease.Name, err)
	}
}

// An eviction helper gets a Pod as a parameter, sets a condition and prints
// the status write's error.
func badPodConditionParameterPrinted(ctx context.Context, cs kubernetes.Interface, pod *corev1.Pod) {
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
		Type:   corev1.DisruptionTarget,
		Status: corev1.ConditionTrue,
		Reason: "EvictionByOperator",
	})
	if _, err := cs.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*pod"
		fmt.Printf("could not mark pod %s/%s: %v\n", pod.Namespace, pod.Name, err)
	}
}

// The Update's error is wrapped and returned to the caller.
func okUpdateErrorWrapped(ctx context.Context, cs kubernetes.Interface, name, zone string) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	node.Labels["topology.kubernetes.io/zone"] = zone
	if _, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("labelling node %s: %w", name, err)
	}
	return nil
}

// A vanished object is not an error here; every other error, a conflict
// included, is returned.
func okNotFoundIgnoredRestReturned(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
	_, err = cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// The bulk relabel collects every failure and returns them aggregated.
func okBulkRelabelAggregatesErrors(ctx context.Context, cs kubernetes.Interface, ns string) error {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		return err
	}
	var errs []error
	for i := range pods.Items {
		pod := &pods.Items[i]
		pod.Labels["example.com/tier"] = "frontend"
		if _, err := cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}); err != nil {
			errs = append(errs, fmt.Errorf("pod %s: %w", pod.Name, err))
		}
	}
	return utilerrors.NewAggregate(errs)
}

// Two writes, both errors joined and returned.
func okTwoWritesErrorsJoined(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	sa, err := cs.CoreV1().ServiceAccounts(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name+"-token", metav1.GetOptions{})
	if err != nil {
		return err
	}
	sa.Secrets = append(sa.Secrets, corev1.ObjectReference{Name: secret.Name})
	secret.Annotations[corev1.ServiceAccountNameKey] = sa.Name
	_, saErr := cs.CoreV1().ServiceAccounts(ns).Update(ctx, sa, metav1.UpdateOptions{})
	_, secretErr := cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
	return errors.Join(saErr, secretErr)
}

// The helper's error is returned to the caller.
func okHelperErrorReturned(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return kubeutil.SetAnnotation(ctx, cs, cm, "example.com/last-seen", time.Now().UTC().Format(time.RFC3339))
}

// The helper retries its own read-modify-write on conflict; the caller
// only logs what is left after the retries.
func okHelperRetriesCallerLogs(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	err := kubeutil.MutateConfigMap(ctx, cs, ns, name, func(cm *corev1.ConfigMap) {
		cm.Data["mode"] = "maintenance"
	})
	if err != nil {
		klog.ErrorS(err, "Failed to enter maintenance mode", "configmap", klog.KRef(ns, name))
	}
}

// The write is inside RetryOnConflict; the final error is only logged.
func okRetryOnConflictThenLogged(ctx context.Context, cs kubernetes.Interface, nodeName string) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		node.Spec.Unschedulable = false
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		klog.ErrorS(err, "Failed to uncordon node", "node", nodeName)
	}
}

// The renew error is returned to the caller, which decides how to retry.
func (l *LeaseHolder) okRenewReturnsError(ctx context.Context) error {
	now := metav1.NewMicroTime(time.Now())
	l.lease.Spec.RenewTime = &now
	updated, err := l.client.CoordinationV1().Leases(l.lease.Namespace).Update(ctx, l.lease, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	l.lease = updated
	return nil
}

// The Update's error is kept in a variable and returned after cleanup.
func okErrorReturnedAfterCleanup(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	nsObj, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if err != nil {
		return err
	}
	nsObj.Labels["example.com/quarantined"] = name
	_, updateErr := cs.CoreV1().Namespaces().Update(ctx, nsObj, metav1.UpdateOptions{})
	if updateErr != nil {
		klog.V(2).InfoS("Namespace update failed", "namespace", ns, "err", updateErr)
	}
	return updateErr
}

// The Update's error is only logged; the error returned later is about the
// content, not the write.
func markManagedThenValidate(ctx context.Context, cs kubernetes.Interface, ns string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "overrides", metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["app.kubernetes.io/managed-by"] = "operator"
	if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: Update of cm .*only logged"
		klog.Warningf("failed to label %s: %v", cm.Name, err)
	}
	if v, ok := cm.Data["config"]; ok && v == "" {
		return fmt.Errorf("configmap %s: empty config", cm.Name)
	}
	return nil
}

// reapplyOverride re-reads and re-applies the change a bounded number of
// times.
func reapplyOverride(ctx context.Context, cs kubernetes.Interface, ns, name, v string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var cur *corev1.ConfigMap
		if cur, err = cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{}); err != nil {
			return err
		}
		cur.Data["override"] = v
		if _, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cur, metav1.UpdateOptions{}); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// On a conflict the change is re-applied on a fresh read; other errors are
// left to the next resync.
func persistOverride(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap, v string) {
	cm.Data["override"] = v
	if _, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		if !apierrors.IsConflict(err) {
			return
		}
		if err := reapplyOverride(ctx, cs, cm.Namespace, cm.Name, v); err != nil {
			klog.ErrorS(err, "re-applying the override failed")
		}
	}
}

// A typed client's Update with both results discarded on an error path: the
// function fails anyway, and its caller tries again.
func markConfigMapFailed(ctx context.Context, cs kubernetes.Interface, ns, name string, cause error) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.Data["last-error"] = cause.Error()
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return fmt.Errorf("sync %s/%s: %w", ns, name, cause)
}

// A resize loop logs each failed Update and remembers it in a flag; after
// the loop, a set flag fails the function, so the caller retries.
func okResizeClaimsFailureFlag(ctx context.Context, cs kubernetes.Interface, ns, prefix string, size corev1.ResourceList) error {
	claims, err := cs.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	updateFailed := false
	for i := range claims.Items {
		pvc := &claims.Items[i]
		if len(pvc.Name) < len(prefix) || pvc.Name[:len(prefix)] != prefix {
			continue
		}
		pvc.Spec.Resources.Requests = size
		if _, err := cs.CoreV1().PersistentVolumeClaims(ns).Update(ctx, pvc, metav1.UpdateOptions{}); err != nil {
			updateFailed = true
			klog.ErrorS(err, "Failed to resize claim", "claim", pvc.Name)
		} else {
			klog.InfoS("Resized claim", "claim", pvc.Name)
		}
	}
	if updateFailed {
		return fmt.Errorf("resizing the claims with prefix %s failed", prefix)
	}
	return nil
}

// The same loop with a flag that only counts the successes: a failed
// Update is logged, and the function succeeds.
func badResizeClaimsSuccessFlag(ctx context.Context, cs kubernetes.Interface, ns, prefix string, size corev1.ResourceList) (bool, error) {
	claims, err := cs.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	resized := false
	for i := range claims.Items {
		pvc := &claims.Items[i]
		if len(pvc.Name) < len(prefix) || pvc.Name[:len(prefix)] != prefix {
			continue
		}
		pvc.Spec.Resources.Requests = size
		if _, err := cs.CoreV1().PersistentVolumeClaims(ns).Update(ctx, pvc, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*pvc"
			klog.ErrorS(err, "Failed to resize claim", "claim", pvc.Name)
		} else {
			resized = true
		}
	}
	if !resized {
		return false, nil
	}
	return true, nil
}

// A flag set on failure that only picks the log line: the function
// succeeds either way.
func badResizeClaimsFlagOnlyLogged(ctx context.Context, cs kubernetes.Interface, ns string, size corev1.ResourceList) error {
	claims, err := cs.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	failed := false
	for i := range claims.Items {
		pvc := &claims.Items[i]
		pvc.Spec.Resources.Requests = size
		if _, err := cs.CoreV1().PersistentVolumeClaims(ns).Update(ctx, pvc, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*pvc"
			failed = true
			klog.ErrorS(err, "Failed to resize claim", "claim", pvc.Name)
		}
	}
	if failed {
		klog.InfoS("Some claims keep their size", "namespace", ns)
	}
	return nil
}

// The failures are collected, and any one makes the function fail: the
// caller sees an error and retries, as ob-operator's node taint update does.
func okTaintNodesFailuresCollected(ctx context.Context, cs kubernetes.Interface, names []string, taint corev1.Taint) error {
	var failedNodes []string
	for _, name := range names {
		node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		node.Spec.Taints = append(node.Spec.Taints, taint)
		if _, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil {
			failedNodes = append(failedNodes, name)
			klog.ErrorS(err, "Failed to taint node", "node", name)
		}
	}
	if len(failedNodes) > 0 {
		return fmt.Errorf("tainting nodes failed: %s", strings.Join(failedNodes, ","))
	}
	return nil
}

// The failures are collected only to be logged: the function succeeds.
func badTaintNodesFailuresOnlyLogged(ctx context.Context, cs kubernetes.Interface, names []string, taint corev1.Taint) error {
	var failedNodes []string
	for _, name := range names {
		node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		node.Spec.Taints = append(node.Spec.Taints, taint)
		if _, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*node"
			failedNodes = append(failedNodes, name)
			klog.ErrorS(err, "Failed to taint node", "node", name)
		}
	}
	if len(failedNodes) != 0 {
		klog.InfoS("Some nodes keep their taints", "nodes", strings.Join(failedNodes, ","))
	}
	return nil
}

func anyOf(bool) {}

// A failure path with many boolean expressions before the requeue: they
// are no flags a branch tests, and the walk does not follow them.
func okRequeuedAfterBooleans(ctx context.Context, cs kubernetes.Interface, queue workqueue.TypedRateLimitingInterface[string], ns, name string, a []bool) {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	cm.Data["touched"] = "true"
	if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "update")
		anyOf(a[0] || a[1])
		anyOf(a[1] || a[2])
		anyOf(a[2] || a[3])
		anyOf(a[3] || a[4])
		anyOf(a[4] || a[5])
		anyOf(a[5] || a[6])
		anyOf(a[6] || a[7])
		anyOf(a[7] || a[8])
		anyOf(a[8] || a[9])
		anyOf(a[9] || a[10])
		anyOf(a[10] || a[11])
		anyOf(a[11] || a[12])
		anyOf(a[12] || a[13])
		queue.AddRateLimited(ns + "/" + name)
		return
	}
}

// The functions above are run by the controller's workers.
var _ = []any{(*LeaseHolder).badRenewOnlyLogged, badBulkRelabelContinuesPastFailure, badConflictSwallowedAsSuccess, badHelperErrorDiscarded, badLabelNodeOnlyLogged, badPodConditionParameterPrinted, badResizeClaimsFlagOnlyLogged, badResizeClaimsSuccessFlag, badTaintNodesFailuresOnlyLogged, badTouchConfigMapDiscardsResult, markManagedThenValidate}

// The functions above are run by the program's workers.
var _ = []any{(*LeaseHolder).okRenewReturnsError, markConfigMapFailed, okBulkRelabelAggregatesErrors, okErrorReturnedAfterCleanup, okHelperErrorReturned, okHelperRetriesCallerLogs, okNotFoundIgnoredRestReturned, okRequeuedAfterBooleans, okResizeClaimsFailureFlag, okRetryOnConflictThenLogged, okTaintNodesFailuresCollected, okTwoWritesErrorsJoined, okUpdateErrorWrapped, persistOverride}
