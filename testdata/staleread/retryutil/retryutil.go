// Package retryutil holds the retry wrappers an operator repository shares
// between its controllers.
package retryutil

import (
	"context"
	"errors"
	"math/rand"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
)

// ConflictBackoff is the backoff used for writes that hit 409 Conflict.
var ConflictBackoff = wait.Backoff{
	Steps:    5,
	Duration: 10 * time.Millisecond,
	Factor:   2.0,
	Jitter:   0.1,
}

// UpdateOnConflict runs mutate again, with backoff, while it fails with a
// conflict.
func UpdateOnConflict(mutate func() error) error {
	return retry.RetryOnConflict(ConflictBackoff, mutate)
}

// WithAttempts calls fn up to attempts times while it returns a conflict,
// waiting a little longer after each attempt.
func WithAttempts(ctx context.Context, attempts int, fn func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); !apierrors.IsConflict(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i+1) * 20 * time.Millisecond):
		}
	}
	return err
}

// Logged calls fn once and logs how long it took; it does not retry.
func Logged(name string, fn func() error) error {
	start := time.Now()
	err := fn()
	klog.V(4).InfoS("operation finished", "name", name, "duration", time.Since(start), "err", err)
	return err
}

const (
	apiRetryInterval       = 500 * time.Millisecond
	apiRetryJitterInterval = 50 * time.Millisecond
)

// RetryOnConflictCause runs fn up to ten times while it fails with a
// conflict, sleeping half a second and some jitter between attempts, as
// longhorn-manager's helper does.
func RetryOnConflictCause(fn func() (any, error)) (any, error) {
	for i := 0; i < 10; i++ {
		obj, err := fn()
		if err == nil {
			return obj, nil
		}
		if !apierrors.IsConflict(err) {
			return nil, err
		}
		time.Sleep(apiRetryInterval + apiRetryJitterInterval*time.Duration(rand.Intn(5)))
	}
	return nil, errors.New("too many conflicts")
}

// The retry interval of RetryOnConflictVars, kept in variables as
// longhorn-manager keeps its own: only their declarations set them.
var (
	APIRetryInterval       = 500 * time.Millisecond
	APIRetryJitterInterval = 50 * time.Millisecond
)

// RetryOnConflictVars is RetryOnConflictCause with its waits in variables.
func RetryOnConflictVars(fn func() (any, error)) (any, error) {
	for i := 0; i < 10; i++ {
		obj, err := fn()
		if err == nil {
			return obj, nil
		}
		if !apierrors.IsConflict(err) {
			return nil, err
		}
		time.Sleep(APIRetryInterval + APIRetryJitterInterval*time.Duration(rand.Intn(5)))
	}
	return nil, errors.New("too many conflicts")
}

// TunableRetryInterval starts at half a second, but SetTunableRetryInterval
// may set it to anything, zero included.
var TunableRetryInterval = 500 * time.Millisecond

// SetTunableRetryInterval sets the wait of RetryOnConflictTunable.
func SetTunableRetryInterval(d time.Duration) { TunableRetryInterval = d }

// RetryOnConflictTunable sleeps TunableRetryInterval between attempts.
func RetryOnConflictTunable(fn func() (any, error)) (any, error) {
	for i := 0; i < 10; i++ {
		obj, err := fn()
		if err == nil {
			return obj, nil
		}
		if !apierrors.IsConflict(err) {
			return nil, err
		}
		time.Sleep(TunableRetryInterval)
	}
	return nil, errors.New("too many conflicts")
}
