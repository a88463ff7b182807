package missingretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A status write tried once, and on failure redone in a conflict retry
// that reads the object again each attempt: the 409 of the first write
// reaches that retry, and a last failure is returned.
type statusWriter struct {
	c client.Client
}

func (w *statusWriter) updateStatus(ctx context.Context, cm *corev1.ConfigMap) error {
	err := w.c.Status().Update(ctx, cm)
	if err != nil {
		klog.ErrorS(err, "cannot update the status, retrying")
		errAfterRetries := retry.RetryOnConflict(retry.DefaultBackoff, func() error {
			latest := &corev1.ConfigMap{}
			if err := w.c.Get(ctx, client.ObjectKeyFromObject(cm), latest); err != nil {
				return err
			}
			latest.Data = cm.Data
			return w.c.Status().Update(ctx, latest)
		})
		if errAfterRetries != nil {
			return errAfterRetries
		}
	}
	return nil
}

// The control: the failure branch retries only a read, and the write's
// conflict is lost.
func (w *statusWriter) updateStatusThenWait(ctx context.Context, cm *corev1.ConfigMap) error {
	err := w.c.Status().Update(ctx, cm) // want `^missing-retry: Status\(\)\.Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
	if err != nil {
		klog.ErrorS(err, "cannot update the status, waiting for the object")
		errAfterRetries := retry.OnError(retry.DefaultBackoff, func(error) bool { return true }, func() error {
			return w.c.Get(ctx, client.ObjectKeyFromObject(cm), &corev1.ConfigMap{})
		})
		if errAfterRetries != nil {
			return errAfterRetries
		}
	}
	return nil
}

func (w *statusWriter) sync(ctx context.Context, key client.ObjectKey) {
	cm := &corev1.ConfigMap{}
	if err := w.c.Get(ctx, key, cm); err != nil {
		return
	}
	cm.Data["synced"] = "true"
	if err := w.updateStatus(ctx, cm); err != nil {
		klog.ErrorS(err, "cannot sync")
	}
	cm2 := &corev1.ConfigMap{}
	if err := w.c.Get(ctx, key, cm2); err != nil {
		return
	}
	cm2.Data["waited"] = "true"
	_ = w.updateStatusThenWait(ctx, cm2)
}

var _ = []any{(*statusWriter).sync}
