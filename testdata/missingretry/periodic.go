package missingretry

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// A loop run every period until it succeeds: each period reads the
// ConfigMap again and writes it, so a write lost to a conflict is retried
// one period later.
func publishEndpoints(ctx context.Context, cs kubernetes.Interface, ns, name string, data map[string]string) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wait.JitterUntilWithContext(ctx, func(ctx context.Context) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return
		}
		cm.Data = data
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "cannot publish the endpoints")
			return
		}
		cancel()
	}, 5*time.Second, 0.3, true)
}

// The same loop around an object read once, before it: every period resends
// the same object, and the logged conflict is lost for good.
func publishEndpointsReadOnce(ctx context.Context, cs kubernetes.Interface, ns, name string, data map[string]string) {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	wait.UntilWithContext(ctx, func(ctx context.Context) {
		cm.Data = data
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
			klog.ErrorS(err, "cannot publish the endpoints")
		}
	}, 5*time.Second)
}

// The functions above are run by the program's workers.
var _ = []any{publishEndpoints, publishEndpointsReadOnce}
