package missingretry

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// A replica takes over an expired Lease before it rotates certificates.
// A failed Update, a conflict with another replica included, is logged and
// answered with false, which success never returns: the caller is told it
// does not hold the lease.
func acquireRotationLease(ctx context.Context, cs kubernetes.Interface, ns, holder string) bool {
	lease, err := cs.CoordinationV1().Leases(ns).Get(ctx, "cert-rotation", metav1.GetOptions{})
	if err != nil {
		klog.ErrorS(err, "cannot read the lease")
		return false
	}
	now := metav1.NewMicroTime(time.Now())
	lease.Spec.HolderIdentity = &holder
	lease.Spec.RenewTime = &now
	if _, err := cs.CoordinationV1().Leases(ns).Update(ctx, lease, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "cannot take the lease")
		return false
	}
	return true
}

// The positive control: a failed Update answers true, as success does, so
// the caller goes on as the holder of a lease it never took.
func renewRotationLease(ctx context.Context, cs kubernetes.Interface, ns, holder string) bool {
	lease, err := cs.CoordinationV1().Leases(ns).Get(ctx, "cert-rotation", metav1.GetOptions{})
	if err != nil {
		klog.ErrorS(err, "cannot read the lease")
		return false
	}
	now := metav1.NewMicroTime(time.Now())
	lease.Spec.HolderIdentity = &holder
	lease.Spec.RenewTime = &now
	if _, err := cs.CoordinationV1().Leases(ns).Update(ctx, lease, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of lease is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		klog.ErrorS(err, "cannot renew the lease")
		return true
	}
	return true
}

// One rotation, on demand (no period runs it again): what the lease
// writes answer decides whether this replica rotates.
func rotateWithLease(ctx context.Context, cs kubernetes.Interface, ns, holder string, rotate func()) {
	if !acquireRotationLease(ctx, cs, ns, holder) {
		return
	}
	rotate()
	if renewRotationLease(ctx, cs, ns, holder) {
		rotate()
	}
}

var _ = rotateWithLease
