// Package fixes holds findings with a mechanical fix: the golden file is the
// code after the fixes, and must compile.
package fixes

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const finalizer = "example.com/cleanup"

// MergeFrom gains the optimistic lock (the package is imported as crclient).
func addFinalizer(ctx context.Context, c crclient.Client, cm *corev1.ConfigMap) error {
	patch := crclient.MergeFrom(cm.DeepCopy())
	controllerutil.AddFinalizer(cm, finalizer)
	return c.Patch(ctx, cm, patch) // want "^unconditional-patch: "
}

// The same, written over several lines with a trailing comma.
func removeFinalizer(ctx context.Context, c crclient.Client, cm *corev1.ConfigMap) error {
	base := cm.DeepCopy()
	controllerutil.RemoveFinalizer(cm, finalizer)
	return c.Patch(ctx, cm, crclient.MergeFrom( // want "^unconditional-patch: "
		base,
	))
}

// StrategicMergeFrom takes the option as one more argument.
func dropToleration(ctx context.Context, c crclient.Client, pod *corev1.Pod) error {
	patch := crclient.StrategicMergeFrom(pod.DeepCopy())
	pod.Spec.Tolerations = pod.Spec.Tolerations[:0]
	return c.Patch(ctx, pod, patch) // want "^unconditional-patch: "
}

// ResourceVersion "0" is the only field of the options.
func relabel(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	pod.Labels["seen"] = "true"
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// ResourceVersion "0" is one field of several, over several lines.
func relabelAll(ctx context.Context, cs kubernetes.Interface, ns string) error {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{ // want "^stale-read: "
		LabelSelector:   "app=web",
		ResourceVersion: "0",
		Limit:           100,
	})
	if err != nil {
		return err
	}
	for i := range pods.Items {
		pods.Items[i].Labels["seen"] = "true"
		if _, err := cs.CoreV1().Pods(ns).Update(ctx, &pods.Items[i], metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// ResourceVersion "0" last, in a variable.
func relabelLast(ctx context.Context, cs kubernetes.Interface, ns string) error {
	opts := metav1.ListOptions{LabelSelector: "app=web", ResourceVersion: "0"}
	pods, err := cs.CoreV1().Pods(ns).List(ctx, opts) // want "^stale-read: "
	if err != nil || len(pods.Items) == 0 {
		return err
	}
	pod := pods.Items[0].DeepCopy()
	pod.Labels["seen"] = "true"
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// ResourceVersion "0" set on options built elsewhere: the assignment goes.
func relabelFromCache(ctx context.Context, cs kubernetes.Interface, ns string, opts metav1.ListOptions) error {
	opts.ResourceVersion = "0"
	pods, err := cs.CoreV1().Pods(ns).List(ctx, opts) // want "^stale-read: "
	if err != nil || len(pods.Items) == 0 {
		return err
	}
	pod := pods.Items[0].DeepCopy()
	pod.Labels["seen"] = "true"
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// A patch variable set in two branches: both MergeFroms gain the lock.
func ensureFinalizer(ctx context.Context, c crclient.Client, cm *corev1.ConfigMap, adopt bool) error {
	var patch crclient.Patch
	if adopt {
		patch = crclient.MergeFrom(cm.DeepCopy())
		cm.OwnerReferences = nil
	} else {
		patch = crclient.MergeFrom(cm.DeepCopy())
		controllerutil.AddFinalizer(cm, finalizer)
	}
	return c.Patch(ctx, cm, patch) // want "^unconditional-patch: "
}

// The functions above are run by the controller's workers.
var _ = []any{addFinalizer, dropToleration, relabel, relabelAll, relabelFromCache, relabelLast, removeFinalizer, ensureFinalizer}
