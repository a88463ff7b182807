package staleread

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
)

// A "cheap" read from the watch cache feeds a read-modify-write: the PUT may carry a resourceVersion that is already outdated, so it fails or works on old data.
func badCacheGetThenUpdate(ctx context.Context, cs kubernetes.Interface, ns, name, key, value string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data[key] = value
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// Listing pods from the watch cache and updating each listed item writes objects that may be several versions behind.
func badCacheListThenUpdateItems(ctx context.Context, cs kubernetes.Interface, ns string) error {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=cache", ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		pod.Labels["example.com/evict"] = "true"
		if _, err := cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// The kubelet-style node status heartbeat: a Node read from the watch cache is diffed into a strategic merge patch, so the patch is computed against a possibly stale object.
func badCacheGetThenStatusPatch(ctx context.Context, cs kubernetes.Interface, nodeName string, now metav1.Time) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	updated := node.DeepCopy()
	for i := range updated.Status.Conditions {
		if updated.Status.Conditions[i].Type == corev1.NodeReady {
			updated.Status.Conditions[i].LastHeartbeatTime = now
		}
	}
	oldData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	newData, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, corev1.Node{})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
	return err
}

// Options kept in a variable still ask for the watch cache; the DeepCopy of the read is then written to /status.
func badCacheGetOptionsVariableThenUpdateStatus(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	fromCache := metav1.GetOptions{ResourceVersion: "0"}
	job, err := cs.BatchV1().Jobs(ns).Get(ctx, name, fromCache) // want "^stale-read: "
	if err != nil {
		return err
	}
	updated := job.DeepCopy()
	updated.Status.Conditions = append(updated.Status.Conditions, batchv1.JobCondition{
		Type:   "example.com/Audited",
		Status: corev1.ConditionTrue,
	})
	_, err = cs.BatchV1().Jobs(ns).UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	return err
}

// Re-reading from the watch cache inside a conflict retry can return the same stale version on every attempt, so the retry keeps failing.
func badCacheGetInsideRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		sa, err := cs.CoreV1().ServiceAccounts(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
		if err != nil {
			return err
		}
		sa.ImagePullSecrets = append(sa.ImagePullSecrets, corev1.LocalObjectReference{Name: "registry-creds"})
		_, err = cs.CoreV1().ServiceAccounts(ns).Update(ctx, sa, metav1.UpdateOptions{})
		return err
	})
}

// borderline: the patch body is a constant, only the node names come from the cached list; reported because a name taken from the RV=0 read feeds the Patch.
// Cordoning every node of a pool listed from the watch cache: each patch targets a name taken from the cached list.
func badCacheListThenPatchByName(ctx context.Context, cs kubernetes.Interface, pool string) error {
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{ // want "^stale-read: "
		LabelSelector:   "example.com/pool=" + pool,
		ResourceVersion: "0",
	})
	if err != nil {
		return err
	}
	cordon := []byte(`{"spec":{"unschedulable":true}}`)
	for _, node := range nodes.Items {
		if _, err := cs.CoreV1().Nodes().Patch(ctx, node.Name, types.StrategicMergePatchType, cordon, metav1.PatchOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// A scale-up computed from a cached replica count: the merge patch body is derived from a stale read.
func badCacheGetThenPatchComputedReplicas(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	dep, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	replicas := int32(1)
	if dep.Spec.Replicas != nil {
		replicas = *dep.Spec.Replicas + 1
	}
	patch := []byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas))
	_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}) // want "^unconditional-patch: Patch sends a merge patch"
	return err
}

// A watch-cache read used only to log the object's state writes nothing.
func okCacheGetForLogging(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"})
	if err != nil {
		klog.ErrorS(err, "cannot read pod", "pod", klog.KRef(ns, name))
		return
	}
	klog.InfoS("pod state", "pod", klog.KObj(pod), "phase", pod.Status.Phase, "node", pod.Spec.NodeName)
}

// A "kubectl get"-style listing served from the watch cache is exactly what RV=0 is for.
func okCacheListForDisplay(ctx context.Context, cs kubernetes.Interface, ns string) error {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tPHASE\tNODE")
	for _, p := range pods.Items {
		fmt.Fprintf(w, "%s\t%s\t%s\n", p.Name, p.Status.Phase, p.Spec.NodeName)
	}
	return w.Flush()
}

// Namespaces listed from the watch cache only decide where to create a new ConfigMap; a Create cannot overwrite anything.
func okCacheListThenCreate(ctx context.Context, cs kubernetes.Interface, caBundle string) error {
	namespaces, err := cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: "example.com/inject-ca=true", ResourceVersion: "0"})
	if err != nil {
		return err
	}
	for _, ns := range namespaces.Items {
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "trusted-ca", Namespace: ns.Name},
			Data:       map[string]string{"ca.crt": caBundle},
		}
		_, err := cs.CoreV1().ConfigMaps(ns.Name).Create(ctx, cm, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	return nil
}

// A TTL cleaner lists finished Jobs from the watch cache and deletes them; Delete is not an update of the cached object.
func okCacheListThenDelete(ctx context.Context, cs kubernetes.Interface, ns string, ttl time.Duration) error {
	jobs, err := cs.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	propagation := metav1.DeletePropagationBackground
	for _, job := range jobs.Items {
		if job.Status.CompletionTime == nil || time.Since(job.Status.CompletionTime.Time) < ttl {
			continue
		}
		err := cs.BatchV1().Jobs(ns).Delete(ctx, job.Name, metav1.DeleteOptions{PropagationPolicy: &propagation})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// Check the watch cache cheaply, and read from etcd before writing: the object written comes from the fresh Get.
func okCacheCheckThenFreshGetUpdate(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cached, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	if cached.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return nil
	}
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Spec.AllocateLoadBalancerNodePorts = new(bool)
	_, err = cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{})
	return err
}

// An explicit empty resourceVersion is the default: a consistent read from etcd.
func okExplicitEmptyResourceVersionThenUpdate(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: ""})
	if err != nil {
		return err
	}
	secret.Labels["example.com/rotated"] = "true"
	_, err = cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
	return err
}

// A reflector-style list and watch resumed from the last seen resourceVersion; nothing read is written back.
func okListResumedFromLastResourceVersion(ctx context.Context, cs kubernetes.Interface, ns, lastRV string, handle func(watch.Event)) error {
	events, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{ResourceVersion: lastRV, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan})
	if err != nil {
		return err
	}
	w, err := cs.CoreV1().Events(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: events.ResourceVersion, AllowWatchBookmarks: true})
	if err != nil {
		return err
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		handle(ev)
	}
	return nil
}

// The client-go documented retry: each attempt reads fresh from the API server.
func okFreshGetInsideRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["mode"] = "maintenance"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// A bounded hand-written conflict loop that re-reads from the API server on every attempt.
func okHandLoopFreshGet(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var pvc *corev1.PersistentVolumeClaim
		pvc, err = cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if pvc.Annotations == nil {
			pvc.Annotations = map[string]string{}
		}
		pvc.Annotations["example.com/snapshot-requested"] = "true"
		_, err = cs.CoreV1().PersistentVolumeClaims(ns).Update(ctx, pvc, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// Copying a Secret found in the watch cache into another namespace with Create: the stale read feeds no update.
func okCacheGetThenCreateCopy(ctx context.Context, cs kubernetes.Interface, from, to, name string) error {
	src, err := cs.CoreV1().Secrets(from).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	dst := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: src.Name, Namespace: to, Labels: src.Labels},
		Type:       src.Type,
		Data:       src.Data,
	}
	_, err = cs.CoreV1().Secrets(to).Create(ctx, dst, metav1.CreateOptions{})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badCacheGetInsideRetry, badCacheGetOptionsVariableThenUpdateStatus, badCacheGetThenPatchComputedReplicas, badCacheGetThenStatusPatch, badCacheGetThenUpdate, badCacheListThenPatchByName, badCacheListThenUpdateItems}

// The functions above are run by the program's workers.
var _ = []any{okCacheCheckThenFreshGetUpdate, okCacheGetForLogging, okCacheGetThenCreateCopy, okCacheListForDisplay, okCacheListThenCreate, okCacheListThenDelete, okExplicitEmptyResourceVersionThenUpdate, okFreshGetInsideRetry, okHandLoopFreshGet, okListResumedFromLastResourceVersion}
