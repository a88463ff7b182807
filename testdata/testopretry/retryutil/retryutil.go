// Package retryutil holds the retry helpers an operator shares between its
// controllers.
package retryutil

import (
	"k8s.io/client-go/util/retry"
)

// OnConflict runs fn again, with the default backoff, while it fails with a
// 409 Conflict.
func OnConflict(fn func() error) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, fn)
}
