package staleretry

import (
	"context"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// ensureClusterRole creates the role it is given, and replaces the one that
// exists when it is marked for update. The role is made to be created: it
// carries no resourceVersion, so its Update gets no 409 for the retry to
// resend (the Update is unconditional, which its callers answer for).
func ensureClusterRole(ctx context.Context, cs kubernetes.Interface, role rbacv1.ClusterRole, backoff wait.Backoff) error {
	var lastErr error
	err := wait.ExponentialBackoffWithContext(ctx, backoff, func(ctx context.Context) (bool, error) {
		_, lastErr = cs.RbacV1().ClusterRoles().Create(ctx, &role, metav1.CreateOptions{})
		if lastErr == nil {
			return true, nil
		}
		if !apierrors.IsAlreadyExists(lastErr) {
			return false, nil
		}
		current, err := cs.RbacV1().ClusterRoles().Get(ctx, role.Name, metav1.GetOptions{})
		if err != nil {
			lastErr = err
			return false, nil
		}
		if current.Annotations["example.com/auto-update"] == "true" {
			if _, lastErr = cs.RbacV1().ClusterRoles().Update(ctx, &role, metav1.UpdateOptions{}); lastErr != nil {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("ensure ClusterRole %s: %v", role.Name, lastErr)
	}
	return nil
}

// The same retry around a role passed in, not created here: the caller's
// read is resent on every attempt.
func updateClusterRole(ctx context.Context, cs kubernetes.Interface, role rbacv1.ClusterRole, backoff wait.Backoff) error {
	return wait.ExponentialBackoffWithContext(ctx, backoff, func(ctx context.Context) (bool, error) {
		role.Annotations = map[string]string{"example.com/touched": "true"}
		_, err := cs.RbacV1().ClusterRoles().Update(ctx, &role, metav1.UpdateOptions{}) // want `^stale-retry: Update inside wait\.ExponentialBackoffWithContext writes role`
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// The functions above are run by the program's workers.
var _ = []any{ensureClusterRole, updateClusterRole}
