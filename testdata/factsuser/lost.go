package factsuser

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/facts"
)

// The helper of package facts loses its Update's error; this caller asks
// for a requeue after it on every path, so the next pass writes again.
func okMarkThenRequeue(ctx context.Context, c client.Client, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	facts.MarkSynced(ctx, c, &cm)
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

// This caller goes on as if the write succeeded: the failure is lost.
func badMarkThenDone(ctx context.Context, c client.Client, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	facts.MarkSynced(ctx, c, &cm) // want `^missing-retry: MarkSynced of cm is a read-modify-write whose 409 Conflict reaches no retry \(MarkSynced does not return its error\)`
	return ctrl.Result{}, nil
}

var _ = []any{okMarkThenRequeue, badMarkThenDone}

// Through the exported wrapper of a handler: the same.
func badSyncThenDone(ctx context.Context, h *facts.Handler, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := h.Client.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	h.Sync(ctx, &cm) // want `^missing-retry: Sync of cm is a read-modify-write whose 409 Conflict reaches no retry \(Sync does not return its error\)`
	return ctrl.Result{}, nil
}

func okSyncThenFail(ctx context.Context, h *facts.Handler, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := h.Client.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	h.Sync(ctx, &cm)
	return ctrl.Result{}, fmt.Errorf("not ready yet")
}

var _ = []any{badSyncThenDone, okSyncThenFail}

func validate(cm *corev1.ConfigMap) error {
	if cm.Data["mode"] == "" {
		return fmt.Errorf("no mode")
	}
	return nil
}

// The caller returns what a validation gave, nil when it passed: on that
// path it neither fails nor requeues, and the failure is lost.
func badMarkThenReturnValidation(ctx context.Context, c client.Client, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := validate(&cm)
	facts.MarkSynced(ctx, c, &cm) // want `^missing-retry: MarkSynced of cm is a read-modify-write`
	return ctrl.Result{}, err
}

// The same, returning the validation's error only when there is one.
func okMarkOnFailedValidation(ctx context.Context, c client.Client, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := validate(&cm); err != nil {
		facts.MarkSynced(ctx, c, &cm)
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

var _ = []any{badMarkThenReturnValidation, okMarkOnFailedValidation}

// Handler.Apply writes the object when it returns and loses the failure:
// a caller that requeues on every path after it is fine, one that goes on
// as if the write succeeded loses it.
func okApplyThenRequeue(ctx context.Context, h *facts.Handler, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := h.Client.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := h.Apply(ctx, &cm); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

func badApplyThenDone(ctx context.Context, h *facts.Handler, key client.ObjectKey) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := h.Client.Get(ctx, key, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := h.Apply(ctx, &cm); err != nil { // want `^missing-retry: Apply of cm is a read-modify-write whose 409 Conflict reaches no retry \(Apply does not return its error\)`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

var _ = []any{okApplyThenRequeue, badApplyThenDone}
