// Package pollutil is an operator's own polling helpers: each runs a
// function until it succeeds, once a second, until the context given is
// done.
package pollutil

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// UntilSuccessWithInterval runs fn every interval until it returns nil or
// ctx is done.
func UntilSuccessWithInterval(ctx context.Context, interval time.Duration, fn func(ctx context.Context) error) error {
	return wait.PollUntilContextCancel(ctx, interval, true, func(ctx context.Context) (bool, error) {
		if err := fn(ctx); err != nil {
			return false, nil
		}
		return true, nil
	})
}

// UntilSuccess runs fn every second until it returns nil or ctx is done.
func UntilSuccess(ctx context.Context, fn func(ctx context.Context) error) error {
	return UntilSuccessWithInterval(ctx, time.Second, fn)
}
