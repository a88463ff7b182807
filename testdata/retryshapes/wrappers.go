package retryshapes

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"lostupdate.test/retryshapes/kubeutil"
)

// untilNoConflict is this package's own retry wrapper, on a loop.
func untilNoConflict(ctx context.Context, fn func() error) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = fn(); !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// onConflict is one on retry.RetryOnConflict.
func onConflict(fn func() error) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, fn)
}

// The package's loop wrapper around an Update of a Secret read outside it.
func badLocalLoopWrapperReadOutside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	secret.Labels["example.com/rotated"] = "true"
	return untilNoConflict(ctx, func() error {
		_, err := cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}) // want "^stale-retry: Update inside retryshapes.untilNoConflict writes secret"
		return err
	})
}

// The same with the read inside.
func okLocalLoopWrapperReadInside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return untilNoConflict(ctx, func() error {
		secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		secret.Labels["example.com/rotated"] = "true"
		_, err = cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
		return err
	})
}

// The package's RetryOnConflict wrapper around an object read outside.
func badLocalRetryWrapperReadOutside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	secret.Labels["example.com/rotated"] = "true"
	return onConflict(func() error {
		_, err := cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}) // want "^stale-retry: Update inside retryshapes.onConflict writes secret"
		return err
	})
}

// Another package's loop wrapper around an Update of a Service read
// outside it.
func badLoopWrapperReadOutside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Spec.ExternalIPs = append(svc.Spec.ExternalIPs, "192.0.2.10")
	return kubeutil.UntilNoConflict(ctx, func() error {
		_, err := cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{}) // want "^stale-retry: Update inside kubeutil.UntilNoConflict writes svc"
		return err
	})
}

// The same with the read inside.
func okLoopWrapperReadInside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return kubeutil.UntilNoConflict(ctx, func() error {
		svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		svc.Spec.ExternalIPs = append(svc.Spec.ExternalIPs, "192.0.2.10")
		_, err = cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{})
		return err
	})
}

// Another package's retry.OnError wrapper around an object read outside.
func badOnErrorWrapperReadOutside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Spec.ExternalIPs = append(svc.Spec.ExternalIPs, "192.0.2.10")
	return kubeutil.OnConflict(ctx, func() error {
		_, err := cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{}) // want "^stale-retry: Update inside kubeutil.OnConflict writes svc"
		return err
	})
}

// Another package's wrapper that retries every error.
func badEveryErrorWrapperReadOutside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Spec.ExternalIPs = append(svc.Spec.ExternalIPs, "192.0.2.10")
	return kubeutil.Persistently(func() error {
		_, err := cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{}) // want "^stale-retry: Update inside kubeutil.Persistently writes svc"
		return err
	})
}

// The same with the read inside.
func okEveryErrorWrapperReadInside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return kubeutil.Persistently(func() error {
		svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		svc.Spec.ExternalIPs = append(svc.Spec.ExternalIPs, "192.0.2.10")
		_, err = cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{})
		return err
	})
}

// Another package's wrapper of wait.ExponentialBackoff.
func badBackoffWrapperReadOutside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Spec.ExternalIPs = append(svc.Spec.ExternalIPs, "192.0.2.10")
	return kubeutil.BackoffOnConflict(func() error {
		_, err := cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{}) // want "^stale-retry: Update inside kubeutil.BackoffOnConflict writes svc"
		return err
	})
}

// A wrapper that runs the function once is no retry: the Update of the
// object read outside is a read-modify-write whose error is returned.
func okOnceWrapperReadOutside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Spec.ExternalIPs = append(svc.Spec.ExternalIPs, "192.0.2.10")
	return kubeutil.Once("add external IP", func() error {
		_, err := cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{})
		return err
	})
}

var _ = corev1.Service{}

// The functions above are run by the controller's workers.
var _ = []any{badBackoffWrapperReadOutside, badEveryErrorWrapperReadOutside, badLocalLoopWrapperReadOutside, badLocalRetryWrapperReadOutside, badLoopWrapperReadOutside, badOnErrorWrapperReadOutside}

// The functions above are run by the program's workers.
var _ = []any{okEveryErrorWrapperReadInside, okLocalLoopWrapperReadInside, okLoopWrapperReadInside, okOnceWrapperReadOutside}
