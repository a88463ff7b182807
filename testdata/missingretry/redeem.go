package missingretry

import (
	"context"
	"net/http"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// An HTTP endpoint redeems a one-time claim kept in a ConfigMap: the
// redemption count is a read-modify-write, and a failed Update (a conflict
// with a concurrent redemption included) answers a non-nil *claimError
// where success answers nil. The handler tells the client 503, and the
// client redeems again.
type claimError struct {
	text string
	code int
}

func newClaimError(text string, code int) *claimError {
	return &claimError{text: text, code: code}
}

func redeemClaim(ctx context.Context, cs kubernetes.Interface, ns, name string) (*corev1.ConfigMap, *claimError) {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, newClaimError("no such claim", http.StatusNotFound)
	}
	if cm.Data["redeemed"] == "true" {
		return nil, newClaimError("already redeemed", http.StatusNotFound)
	}
	cm.Data["redeemed"] = "true"
	if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "cannot record the redemption", "claim", name)
		return nil, newClaimError("internal error", http.StatusServiceUnavailable)
	}
	return cm, nil
}

// The positive control: the failure answers the same nil error success
// does, with the claim read before the write; the client takes a claim
// whose redemption was never recorded.
func redeemClaimLoosely(ctx context.Context, cs kubernetes.Interface, ns, name string) (*corev1.ConfigMap, *claimError) {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, newClaimError("no such claim", http.StatusNotFound)
	}
	cm.Data["redeemed"] = "true"
	if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		klog.ErrorS(err, "cannot record the redemption", "claim", name)
		return cm, nil
	}
	return cm, nil
}

var _ = []any{redeemClaim, redeemClaimLoosely}
