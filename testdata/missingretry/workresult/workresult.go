// Package workresult is a controller's own result type, as controllers
// that run their own workers define it: the worker requeues a key whose
// result asks for it.
package workresult

import (
	"log"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

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

// Report logs the outcome of a reconcile and hands back what it was given:
// the reconcile result as it is, and the error, or nil when the result
// already asks for a requeue.
func Report(name string, res reconcile.Result, err error) (reconcile.Result, error) {
	if err != nil {
		log.Printf("reconcile %s: %v", name, err)
		if !res.IsZero() {
			return res, nil
		}
	}
	return res, err
}

// ReportAndRequeue logs the outcome of a reconcile and always asks for
// another pass in thirty seconds.
func ReportAndRequeue(name string, res reconcile.Result, err error) (reconcile.Result, error) {
	if err != nil {
		log.Printf("reconcile %s: %v", name, err)
	}
	return reconcile.Result{RequeueAfter: 30 * time.Second}, nil
}
