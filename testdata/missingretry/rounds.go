package missingretry

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// A node agent that moves a Pod's IP record to its node: up to 20
// attempts, one second apart, each reading the record again. The Update's
// error is declared in its own if, so it shadows the Get's: where the
// Update runs the outer err is nil, and a failed Update returns nil after
// one attempt. The loop never goes round again after the write.
func claimAddress(ctx context.Context, cs kubernetes.Interface, ns, name, node string) error {
	for range 20 {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			err = fmt.Errorf("get address record %s: %w", name, err)
			klog.Error(err)
		} else if cm.Data["node"] != node {
			cm := cm.DeepCopy()
			cm.Data["node"] = node
			if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
				err = fmt.Errorf("update address record %s: %w", name, err)
				klog.Error(err)
			} else {
				return nil
			}
		}
		if err != nil {
			time.Sleep(time.Second)
		} else {
			return nil
		}
	}
	return nil
}

// The same loop with the Update's error assigned to the outer err: a
// failed Update sleeps and reads the record again in the next attempt.
func claimAddressRetried(ctx context.Context, cs kubernetes.Interface, ns, name, node string) error {
	for range 20 {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			err = fmt.Errorf("get address record %s: %w", name, err)
			klog.Error(err)
		} else if cm.Data["node"] != node {
			cm := cm.DeepCopy()
			cm.Data["node"] = node
			if _, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
				klog.ErrorS(err, "update address record", "name", name)
			} else {
				return nil
			}
		}
		if err != nil {
			time.Sleep(time.Second)
		} else {
			return nil
		}
	}
	return nil
}

var _ = []any{claimAddress, claimAddressRetried}
