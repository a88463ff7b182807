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

// The count is kept but only logged: the logged conflicts are lost.
func ensureSecretsLogged(ctx context.Context, c client.Client, secrets []*corev1.Secret) {
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
	logf.FromContext(ctx).Info("configured the Secrets", "failures", errCount)
}

// The count is the function's result: the caller is told how many writes
// failed, a result success does not give (a handler's CreateOrUpdate
// whose callers fail when it is not zero).
func ensureSecretsCounted(ctx context.Context, c client.Client, secrets []*corev1.Secret) int {
	var errCount int
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
	return errCount
}

// So is a flag the function clears on a failure and returns, and a false
// returned where success returns true: the caller is told.
func syncSecrets(ctx context.Context, c client.Client, ns string, data map[string][]byte) bool {
	var list corev1.SecretList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return false
	}
	success := true
	for i := range list.Items {
		list.Items[i].Data = data
		if err := c.Update(ctx, &list.Items[i]); err != nil {
			logf.FromContext(ctx).Error(err, "cannot update the Secret", "name", list.Items[i].Name)
			success = false
		}
	}
	return success
}

func syncSecret(ctx context.Context, c client.Client, key client.ObjectKey, data map[string][]byte) bool {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return false
	}
	secret.Data = data
	if err := c.Update(ctx, &secret); err != nil {
		logf.FromContext(ctx).Error(err, "cannot update the Secret", "name", secret.Name)
		return false
	}
	return true
}

// The same flag, cleared by other failures too, carried through a second
// loop before it is returned.
func syncSecretsAndPrune(ctx context.Context, c client.Client, ns string, data map[string][]byte, keep map[string]bool) bool {
	var list corev1.SecretList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return false
	}
	success := true
	for i := range list.Items {
		if list.Items[i].Labels == nil {
			if err := c.Delete(ctx, &list.Items[i]); err != nil {
				logf.FromContext(ctx).Error(err, "cannot delete the Secret", "name", list.Items[i].Name)
				success = false
			}
			continue
		}
		list.Items[i].Data = data
		err := c.Update(ctx, &list.Items[i])
		if err != nil {
			logf.FromContext(ctx).Error(err, "cannot update the Secret", "name", list.Items[i].Name)
			success = false
		}
		logf.FromContext(ctx).V(1).Info("synced", "name", list.Items[i].Name, "error", err)
	}
	for i := range list.Items {
		if keep[list.Items[i].Name] {
			continue
		}
		if err := c.Delete(ctx, &list.Items[i]); err != nil {
			success = false
		}
	}
	return success
}

// The control: a flag is returned, but the failure does not clear it.
func syncSecretsTold(ctx context.Context, c client.Client, ns string, data map[string][]byte) bool {
	var list corev1.SecretList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return false
	}
	changed := false
	for i := range list.Items {
		list.Items[i].Data = data
		changed = true
		if err := c.Update(ctx, &list.Items[i]); err != nil { // want `^missing-retry: Update of &list.Items\[i\] is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
			logf.FromContext(ctx).Error(err, "cannot update the Secret", "name", list.Items[i].Name)
		}
	}
	return changed
}

// The functions above are run by the controller's workers.
var _ = []any{ensureSecrets, ensureSecretsLogged, ensureSecretsCounted, syncSecrets, syncSecret, syncSecretsAndPrune, syncSecretsTold}
