package missingretry

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// Each failure is logged and counted, and the function fails when the
// count is not zero: the work queue runs it again.
func ensureSecrets(ctx context.Context, c client.Client, secrets []*corev1.Secret) error {
	var errCount int32
	for _, s := range secrets {
		desired := s.DeepCopy()
		if _, err := controllerutil.CreateOrUpdate(ctx, c, s, func() error {
			s.Data = desired.Data
			return nil
		}); err != nil {
			logf.FromContext(ctx).Error(err, "cannot configure the Secret", "name", s.Name)
			errCount++
			continue
		}
	}
	if errCount > 0 {
		return errors.New("cannot configure the Secrets")
	}
	return nil
}

// The count is kept but never tested: the logged conflicts are lost.
func ensureSecretsCounted(ctx context.Context, c client.Client, secrets []*corev1.Secret) int {
	var errCount int
	for _, s := range secrets {
		desired := s.DeepCopy()
		if _, err := controllerutil.CreateOrUpdate(ctx, c, s, func() error { // want `^missing-retry: CreateOrUpdate of s is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
			s.Data = desired.Data
			return nil
		}); err != nil {
			logf.FromContext(ctx).Error(err, "cannot configure the Secret", "name", s.Name)
			errCount++
		}
	}
	return errCount
}

// The functions above are run by the controller's workers.
var _ = []any{ensureSecrets, ensureSecretsCounted}
