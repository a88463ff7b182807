// Package retryutil holds the retry helpers an operator shares between its
// controllers.
package retryutil

import (
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// ConflictBackoff is the operator-wide backoff for conflicting writes.
var ConflictBackoff = wait.Backoff{
	Steps:    5,
	Duration: 50 * time.Millisecond,
	Factor:   2.0,
	Jitter:   0.1,
}

// OnConflict runs fn again, with backoff, while it fails with a 409 Conflict.
func OnConflict(fn func() error) error {
	return retry.RetryOnConflict(ConflictBackoff, fn)
}
