package staleretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A reconciler that keeps the object it works on in a field of its own
// struct, read once before the retry: every attempt resends the version
// read first. The receiver the retried function captures is the one whose
// field was read into.
type secretRotator struct {
	c      client.Client
	secret *corev1.Secret
}

func (r *secretRotator) rotate(ctx context.Context, key types.NamespacedName, value []byte) error {
	r.secret = &corev1.Secret{}
	if err := r.c.Get(ctx, key, r.secret); err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		r.secret.Data["key"] = value
		return r.c.Update(ctx, r.secret) // want "^stale-retry: "
	})
}

// The same reconciler reading into the field inside the retry sends a
// fresh version every attempt.
func (r *secretRotator) rotateFresh(ctx context.Context, key types.NamespacedName, value []byte) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		r.secret = &corev1.Secret{}
		if err := r.c.Get(ctx, key, r.secret); err != nil {
			return err
		}
		r.secret.Data["key"] = value
		return r.c.Update(ctx, r.secret)
	})
}

// A method the retried function calls reads the field again: the attempt
// after a conflict sends what it read.
func (r *secretRotator) rotateRefreshing(ctx context.Context, key types.NamespacedName, value []byte) error {
	r.secret = &corev1.Secret{}
	if err := r.c.Get(ctx, key, r.secret); err != nil {
		return err
	}
	first := true
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if !first {
			if err := r.refresh(ctx, key); err != nil {
				return err
			}
		}
		first = false
		r.secret.Data["key"] = value
		return r.c.Update(ctx, r.secret)
	})
}

func (r *secretRotator) refresh(ctx context.Context, key types.NamespacedName) error {
	r.secret = &corev1.Secret{}
	return r.c.Get(ctx, key, r.secret)
}

var _ = []any{(*secretRotator).rotate, (*secretRotator).rotateFresh, (*secretRotator).rotateRefreshing}

// Read and written once, with no retry: the Update carries the version read.
func (r *secretRotator) rotateOnce(ctx context.Context, key types.NamespacedName, value []byte) error {
	r.secret = &corev1.Secret{}
	if err := r.c.Get(ctx, key, r.secret); err != nil {
		return err
	}
	r.secret.Data["key"] = value
	return r.c.Update(ctx, r.secret)
}

var _ = (*secretRotator).rotateOnce
