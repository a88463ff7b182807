// Package retryutil holds the small retry and update helpers an operator
// keeps next to its controllers.
package retryutil

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// Backoff is the operator-wide backoff for conflicting writes.
var Backoff = wait.Backoff{
	Steps:    6,
	Duration: 20 * time.Millisecond,
	Factor:   2.0,
	Jitter:   0.1,
}

// OnConflict runs fn again, with backoff, for as long as it fails with a
// 409 Conflict.
func OnConflict(ctx context.Context, fn func() error) error {
	return retry.RetryOnConflict(Backoff, fn)
}

// Attempts runs fn up to n times, sleeping between attempts, while it fails
// with a 409 Conflict.
func Attempts(ctx context.Context, n int, fn func(context.Context) error) error {
	var err error
	for i := 0; i < n; i++ {
		err = fn(ctx)
		if err == nil || !apierrors.IsConflict(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i+1) * 50 * time.Millisecond):
		}
	}
	return err
}

// WithTimeout runs fn once with a deadline; it does not retry.
func WithTimeout(ctx context.Context, d time.Duration, fn func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return fn(ctx)
}

// UpdateConfigMap writes cm as it is.
func UpdateConfigMap(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// SetConfigMapKey reads the ConfigMap, sets one key and writes it back.
func SetConfigMapKey(ctx context.Context, cs kubernetes.Interface, ns, name, key, value string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data[key] = value
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}
