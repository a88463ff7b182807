package applyretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Controllers often write their apply options once, as a package variable
// or a slice of options built before the retry, and pass them on: the force
// is in the options all the same.

var applyOpts = []client.PatchOption{client.ForceOwnership, client.FieldOwner(fieldManager)}

var forceApply = metav1.ApplyOptions{FieldManager: fieldManager, Force: true}

var gentleApply = metav1.ApplyOptions{FieldManager: fieldManager}

func okForcedOptionsPackageSlice(ctx context.Context, c client.Client, cm *corev1.ConfigMap) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return c.Patch(ctx, cm, client.Apply, applyOpts...)
	})
}

func okForcedOptionsLocalSlice(ctx context.Context, c client.Client, ns string) error {
	opts := []client.ApplyOption{client.ForceOwnership, client.FieldOwner(fieldManager)}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return c.Apply(ctx, corev1ac.ConfigMap("settings", ns), opts...)
	})
}

func okForcedOptionsAppended(ctx context.Context, c client.Client, cm *corev1.ConfigMap, force bool) error {
	opts := []client.PatchOption{client.FieldOwner(fieldManager)}
	if force {
		opts = append(opts, client.ForceOwnership)
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return c.Patch(ctx, cm, client.Apply, opts...)
	})
}

func okForcedApplyOptionsSetLater(ctx context.Context, cs kubernetes.Interface, ns string) error {
	opts := metav1.ApplyOptions{FieldManager: fieldManager}
	opts.Force = true
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.CoreV1().ConfigMaps(ns).Apply(ctx, corev1ac.ConfigMap("settings", ns), opts)
		return err
	})
}

func okForcedApplyOptionsPackageVar(ctx context.Context, cs kubernetes.Interface, ns string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.CoreV1().ConfigMaps(ns).Apply(ctx, corev1ac.ConfigMap("settings", ns), forceApply)
		return err
	})
}

// The same shapes without force are reported.

func badOptionsLocalSlice(ctx context.Context, c client.Client, ns string) error {
	opts := []client.ApplyOption{client.FieldOwner(fieldManager)}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return c.Apply(ctx, corev1ac.ConfigMap("settings", ns), opts...) // want "^apply-retry: "
	})
}

func badApplyOptionsPackageVar(ctx context.Context, cs kubernetes.Interface, ns string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.CoreV1().ConfigMaps(ns).Apply(ctx, corev1ac.ConfigMap("settings", ns), gentleApply) // want "^apply-retry: "
		return err
	})
}

var _ = []any{
	okForcedOptionsPackageSlice, okForcedOptionsLocalSlice, okForcedOptionsAppended,
	okForcedApplyOptionsSetLater, okForcedApplyOptionsPackageVar,
	badOptionsLocalSlice, badApplyOptionsPackageVar,
}
