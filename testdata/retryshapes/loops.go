package retryshapes

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// A loop that retries every error, not only conflicts, retries conflicts
// too: each attempt resends the ConfigMap read before the first.
func badEveryErrorLoopReadOutside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.Data["phase"] = "ready"
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	for i := 0; i < 5 && err != nil; i++ {
		time.Sleep(time.Second)
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^stale-retry: Update inside a retry loop writes cm"
	}
	return err
}

// The same loop with the read inside: each attempt writes what it read.
func okEveryErrorLoopReadInside(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	var err error
	for i := 0; i < 5; i++ {
		if i > 0 {
			time.Sleep(time.Second)
		}
		cm, gerr := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if gerr != nil {
			err = gerr
			continue
		}
		cm.Data["phase"] = "ready"
		if _, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err == nil {
			return nil
		}
	}
	return err
}

// A loop that retries every error with no attempt bound.
func badEveryErrorLoopForever(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	for {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			cm.Data["phase"] = "ready"
			if _, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err == nil { // want "^unbounded-retry: Update of cm is retried on conflict by a retry loop with no attempt bound"
				return
			}
		}
		klog.ErrorS(err, "Cannot mark the ConfigMap ready, trying again", "configMap", klog.KRef(ns, name))
		time.Sleep(time.Second)
	}
}

// A worker loop that writes and goes on whether the write failed or not is
// no retry: going round again handles the next item.
func okWorkerLoopWritesEachRound(ctx context.Context, cs kubernetes.Interface, ns string, names <-chan string) {
	for {
		name, ok := <-names
		if !ok {
			return
		}
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			continue
		}
		cm.Data["seen"] = "true"
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: Update of cm .*only logged"
			klog.ErrorS(err, "Cannot mark the ConfigMap", "configMap", klog.KRef(ns, name))
		}
	}
}

// The attempt counter counts only failures other than conflicts: on a hot
// object, a conflict goes round again without using up an attempt.
func badCounterNotAdvancedOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	var err error
	for i := 0; i < 5; {
		cm, gerr := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if gerr != nil {
			return gerr
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by a retry loop with no attempt bound"
		if apierrors.IsConflict(err) {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if err == nil {
			return nil
		}
		i++
		time.Sleep(time.Second)
	}
	return err
}

// The same loop with the counter advanced on a conflict too.
func okCounterAdvancedOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	var err error
	for i := 0; i < 5; {
		cm, gerr := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if gerr != nil {
			return gerr
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			i++
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if err == nil {
			return nil
		}
		i++
		time.Sleep(time.Second)
	}
	return err
}

// A ticker loop on a context that is never done: a conflict waits for the
// next tick, forever.
func badTickLoopBackground(cs kubernetes.Interface, ns, name string) error {
	ctx := context.Background()
	for range time.Tick(time.Second) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by a retry loop with no attempt bound"
		if apierrors.IsConflict(err) {
			continue
		}
		return err
	}
	return nil
}

// The same loop on a context with a timeout: the reads fail once it is
// past, and the loop ends.
func okTickLoopTimeout(cs kubernetes.Interface, ns, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for range time.Tick(time.Second) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			continue
		}
		return err
	}
	return nil
}

// A loop that waits on a timer or for its context, a TODO that is never
// done.
func badSelectLoopTODO(cs kubernetes.Interface, ns, name string) error {
	ctx := context.TODO()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by a retry loop with no attempt bound"
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// The same on a context cut off from its parent's cancellation.
func badSelectLoopWithoutCancel(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	ctx = context.WithoutCancel(ctx)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by a retry loop with no attempt bound"
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// The same loop on a context with a timeout.
func okSelectLoopTimeout(cs kubernetes.Interface, ns, name string) error {
	ctx, cancel := context.WithTimeout(context.TODO(), time.Minute)
	defer cancel()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// The same loop on the caller's context: whether it has a deadline is the
// caller's business.
func okSelectLoopCallerContext(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// A poll that runs until its context is done, on a context that never is.
func badPollUntilCancelBackground(cs kubernetes.Interface, ns, name string) error {
	return wait.PollUntilContextCancel(context.Background(), time.Second, true, func(ctx context.Context) (bool, error) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by wait.PollUntilContextCancel, which has no timeout"
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// The same on a context cut off from its parent's cancellation.
func badPollUntilCancelWithoutCancel(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return wait.PollUntilContextCancel(context.WithoutCancel(ctx), time.Second, true, func(ctx context.Context) (bool, error) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by wait.PollUntilContextCancel, which has no timeout"
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// PollUntilContextTimeout on the same context: bounded by its timeout.
func okPollUntilTimeoutBackground(cs kubernetes.Interface, ns, name string) error {
	return wait.PollUntilContextTimeout(context.Background(), time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// A ticker loop that only passes the caller's context on to its attempts:
// like for { ... time.Sleep(d) }, it has no bound of its own.
func badTickLoopCallerContext(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	for range time.Tick(time.Second) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by a retry loop with no attempt bound"
		if apierrors.IsConflict(err) {
			continue
		}
		return err
	}
	return nil
}

// A select on a ticker made before the loop, and on the Done channel of a
// context that is never done: the ticker fires forever.
func badSelectTickerBackground(cs kubernetes.Interface, ns, name string) error {
	ctx := context.Background()
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unbounded-retry: Update of cm is retried on conflict by a retry loop with no attempt bound"
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// The same with a timeout made before the loop: it ends the loop after a
// minute.
func okSelectTickerWithTimeout(cs kubernetes.Interface, ns, name string) error {
	ctx := context.Background()
	timeout := time.After(time.Minute)
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-timeout:
			return context.DeadlineExceeded
		case <-ticker.C:
		}
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// A loop that checks whether the caller's context is done: whether it has
// a deadline is the caller's business.
func okCtxErrLoopCallerContext(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	for ctx.Err() == nil {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["phase"] = "ready"
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return ctx.Err()
}

// The functions above are run by the controller's workers.
var _ = []any{badCounterNotAdvancedOnConflict, badEveryErrorLoopForever, badEveryErrorLoopReadOutside, badPollUntilCancelBackground, badPollUntilCancelWithoutCancel, badSelectLoopTODO, badSelectLoopWithoutCancel, badSelectTickerBackground, badTickLoopBackground, badTickLoopCallerContext, okWorkerLoopWritesEachRound}

// The functions above are run by the program's workers.
var _ = []any{okCounterAdvancedOnConflict, okCtxErrLoopCallerContext, okEveryErrorLoopReadInside, okPollUntilTimeoutBackground, okSelectLoopCallerContext, okSelectLoopTimeout, okSelectTickerWithTimeout, okTickLoopTimeout}
