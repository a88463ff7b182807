package factsuser

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/facts"
)

// The steps of facts.Chain log their writes' failures. This caller writes
// the same object after the chain, whatever it returned, and returns that
// write's error: after a conflict in a step the object still has the
// version it was read at, so this Update fails with a conflict too and the
// work queue requeues.
func okChainThenUpdate(ctx context.Context, c client.Client, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := facts.NewChain(c).Serve(ctx, &cm); err != nil {
		cm.Annotations["example.com/error"] = err.Error()
	} else {
		delete(cm.Annotations, "example.com/error")
	}
	if err := c.Update(ctx, &cm); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// This caller stops when the chain succeeds: a step's lost write is lost.
func badChainThenDone(ctx context.Context, c client.Client, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := facts.NewChain(c).Serve(ctx, &cm); err != nil { // want `^missing-retry: Serve of cm is a read-modify-write whose 409 Conflict reaches no retry \(Serve does not return its error\)`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

var _ = []any{okChainThenUpdate, badChainThenDone}
