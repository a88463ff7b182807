package unboundedretry

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"lostupdate.test/unboundedretry/pollutil"
)

// A snapshot waiter retries its status write through the operator's poll
// helpers, two wrappers away from wait.PollUntilContextCancel, on a
// context with a timeout: the helpers end when the caller's context does,
// so the retry is bounded. Not reported.
func okHelperPollWithTimeout(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	return pollutil.UntilSuccess(ctx, func(ctx context.Context) error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "snapshotting"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// The same helpers on a context that is never done: a hot ConfigMap keeps
// the poll going forever.
func badHelperPollBackground(cs kubernetes.Interface, ns, name string) error {
	return pollutil.UntilSuccess(context.Background(), func(ctx context.Context) error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "snapshotting"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		return err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badHelperPollBackground}

// The functions above are run by the program's workers.
var _ = []any{okHelperPollWithTimeout}
