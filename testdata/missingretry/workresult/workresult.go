// Package workresult is a controller's own result type, as controllers
// that run their own workers define it: the worker requeues a key whose
// result asks for it.
package workresult

import "time"

type Result struct {
	Success      bool
	RequeueAfter *time.Duration
	Backoff      bool
}

var conflictDelay = 500 * time.Millisecond

var (
	StatusAllOK    = Result{Success: true}
	StatusError    = Result{Backoff: true}
	StatusConflict = Result{RequeueAfter: &conflictDelay}
	// StatusErrorNoRetry: the worker forgets the key.
	StatusErrorNoRetry = Result{}
)

// Requeue asks the worker to put a key back on the queue after a while.
type Requeue struct {
	Key   string
	After time.Duration
}

// NewRequeue builds the result that asks the worker to requeue key after
// requeueAfter.
func NewRequeue(key string, requeueAfter time.Duration) *Requeue {
	return &Requeue{Key: key, After: requeueAfter}
}
