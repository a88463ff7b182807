package missingretry // want package:"has summaries"

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// A wait condition that a function of the package makes and returns, run
// by a wrapper of wait.ExponentialBackoffWithContext: a failed write
// answers (false, nil), so the backoff runs the condition again, and it
// reads the ConfigMap anew. Its success path answers false too (the next
// round checks the phase), so only the retry tells the two apart.
func phaseCondition(cs kubernetes.Interface, ns, name string) wait.ConditionWithContextFunc {
	return func(ctx context.Context) (bool, error) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		if cm.Data["phase"] == "ready" {
			return true, nil
		}
		cm.Data["phase"] = "ready"
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "cannot set the phase", "configmap", name)
			return false, nil
		}
		return false, nil
	}
}

func withBackoff(ctx context.Context, cond wait.ConditionWithContextFunc) error {
	return wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Duration: time.Second, Factor: 2, Steps: 8}, cond)
}

func markPhaseReady(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return withBackoff(ctx, phaseCondition(cs, ns, name))
}

// The same shape run once, outside any retry: the dropped conflict loses
// the label.
func ownerCondition(cs kubernetes.Interface, ns, name string) wait.ConditionWithContextFunc {
	return func(ctx context.Context) (bool, error) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		cm.Labels["owner"] = "example"
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write`
			klog.ErrorS(err, "cannot set the owner", "configmap", name)
		}
		return true, nil
	}
}

func markOwnerOnce(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	_, _ = ownerCondition(cs, ns, name)(ctx)
}

var _ = []any{markPhaseReady, markOwnerOnce}
