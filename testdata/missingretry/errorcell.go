package missingretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
)

// Three calls share one error variable, which a closure captures (so it
// lives in a cell, not in SSA registers). The conflict test of the first
// Update's error runs before the second Update: it says nothing of the
// second's error, which is only logged; and the closure that returns the
// Get's error has run by then.
func badSecondWriteOnlyLogged(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	var cm *corev1.ConfigMap
	var err error
	if err := retry.OnError(retry.DefaultBackoff, apierrors.IsNotFound, func() error {
		cm, err = cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		return err
	}); err != nil {
		return
	}
	cm.Data = map[string]string{"phase": "seeded"}
	cm, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(a conflict is caught and ignored\)`
	if err != nil {
		if apierrors.IsConflict(err) {
			return
		}
		klog.ErrorS(err, "cannot seed", "configmap", name)
		return
	}
	cm.Annotations = map[string]string{"seeded": "true"}
	if _, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		klog.ErrorS(err, "cannot mark seeded", "configmap", name)
	}
}

// The same variable, with the second Update's error returned by a closure
// run after it: handed on.
func okSecondWriteReturnedByClosure(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	var err error
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	result := func() error { return err }
	cm.Data = map[string]string{"phase": "seeded"}
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return result()
}

// The functions above are run by the program's workers.
var _ = []any{badSecondWriteOnlyLogged, okSecondWriteReturnedByClosure}
