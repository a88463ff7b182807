package missingretry

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
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

// A status write tried once, and on failure redone in a hand-written loop
// that reads the object again, writes it through the same helper, and
// sleeps between attempts; the function then returns the first write's
// error (the loop's is shadowed). The first write's 409 reaches that loop:
// the callers that only log what it returns lose nothing to a conflict.
type poolStatus struct {
	cs kubernetes.Interface
}

func (s *poolStatus) updateStatus(cm *corev1.ConfigMap) error {
	cm.Data["status"] = "computed"
	_, err := s.cs.CoreV1().ConfigMaps(cm.Namespace).Update(context.TODO(), cm, metav1.UpdateOptions{})
	return err
}

func (s *poolStatus) updateStatusEventually(cm *corev1.ConfigMap) error {
	maxRetry := 3
	err := s.updateStatus(cm)
	if err != nil {
		klog.Errorf("updating %s: will retry %d times: %v", cm.Name, maxRetry, err)
		for maxRetry > 0 {
			latest, err := s.cs.CoreV1().ConfigMaps(cm.Namespace).Get(context.TODO(), cm.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			err = s.updateStatus(latest)
			if err != nil {
				maxRetry--
				time.Sleep(2 * time.Second)
				continue
			}
			return nil
		}
	}
	return err
}

// The control: the failure branch only waits and reads, and writes
// nothing again.
func (s *poolStatus) updateStatusThenRead(cm *corev1.ConfigMap) error {
	err := s.updateStatus(cm)
	if err != nil {
		for tries := 0; tries < 3; tries++ {
			if _, err := s.cs.CoreV1().ConfigMaps(cm.Namespace).Get(context.TODO(), cm.Name, metav1.GetOptions{}); err == nil {
				break
			}
			time.Sleep(time.Second)
		}
	}
	return err
}

func (s *poolStatus) sync(ns, name string) {
	cm, err := s.cs.CoreV1().ConfigMaps(ns).Get(context.TODO(), name, metav1.GetOptions{})
	if err != nil {
		return
	}
	if err := s.updateStatusEventually(cm); err != nil {
		klog.Errorf("sync %s: %v", name, err)
	}
	cm2, err := s.cs.CoreV1().ConfigMaps(ns).Get(context.TODO(), name, metav1.GetOptions{})
	if err != nil {
		return
	}
	if err := s.updateStatusThenRead(cm2); err != nil { // want `^missing-retry: updateStatusThenRead of cm2 is a read-modify-write whose 409 Conflict reaches no retry`
		klog.Errorf("sync %s: %v", name, err)
	}
}

var _ = []any{(*poolStatus).sync}
