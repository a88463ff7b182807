package missingretry

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

var errNotReady = errors.New("not ready")

// A reconciler that defers the write of the status it computes: the
// deferred write runs when Reconcile returns, and every return after the
// defer either fails or asks for a requeue, so the next pass writes the
// status again. Only logging the write's error loses nothing.
type DeferredSaveReconciler struct {
	client.Client
}

func (r *DeferredSaveReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer r.saveStatus(ctx, &ns)
	ns.Status.Phase = corev1.NamespaceActive
	if ns.Labels["example.com/ready"] != "true" {
		return ctrl.Result{}, errNotReady
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

func (r *DeferredSaveReconciler) saveStatus(ctx context.Context, ns *corev1.Namespace) {
	if err := r.Status().Update(ctx, ns); err != nil {
		logf.FromContext(ctx).Error(err, "cannot save the status")
	}
}

// The same, with the write in a deferred closure.
type DeferredClosureSaveReconciler struct {
	client.Client
}

func (r *DeferredClosureSaveReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err := r.Status().Update(ctx, &ns); err != nil {
			logf.FromContext(ctx).Error(err, "cannot save the status")
		}
	}()
	ns.Status.Phase = corev1.NamespaceActive
	if ns.Labels["example.com/ready"] != "true" {
		return ctrl.Result{}, errNotReady
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

// The positive control: one return after the defer reports success without
// a requeue, and a status write lost there is never written again.
type DeferredSaveOnceReconciler struct {
	client.Client
}

func (r *DeferredSaveOnceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer r.saveStatus(ctx, &ns)
	ns.Status.Phase = corev1.NamespaceActive
	if ns.Labels["example.com/ready"] != "true" {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

func (r *DeferredSaveOnceReconciler) saveStatus(ctx context.Context, ns *corev1.Namespace) {
	if err := r.Status().Update(ctx, ns); err != nil { // want `^missing-retry: Status\(\)\.Update of ns is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		logf.FromContext(ctx).Error(err, "cannot save the status")
	}
}

// The control for the closure: a return after the defer ends the
// reconcile without a requeue.
type DeferredClosureSaveOnceReconciler struct {
	client.Client
}

func (r *DeferredClosureSaveOnceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err := r.Status().Update(ctx, &ns); err != nil { // want `^missing-retry: Status\(\)\.Update of ns is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
			logf.FromContext(ctx).Error(err, "cannot save the status")
		}
	}()
	ns.Status.Phase = corev1.NamespaceActive
	if ns.Labels["example.com/ready"] != "true" {
		return ctrl.Result{}, errNotReady
	}
	return ctrl.Result{}, nil
}

// A write deferred directly drops its error; every return after the defer
// fails or requeues, so the next pass writes the status again.
type DeferredWriteReconciler struct {
	client.Client
}

func (r *DeferredWriteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ns.Status.Phase = corev1.NamespaceActive
	defer r.Status().Update(ctx, &ns)
	if ns.Labels["example.com/ready"] != "true" {
		return ctrl.Result{}, errNotReady
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

// Its control: the reconcile can end without a requeue after the defer.
type DeferredWriteOnceReconciler struct {
	client.Client
}

func (r *DeferredWriteOnceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ns.Status.Phase = corev1.NamespaceActive
	defer r.Status().Update(ctx, &ns) // want `^missing-retry: Status\(\)\.Update of ns is a read-modify-write whose 409 Conflict reaches no retry \(its error is dropped\)`
	if ns.Labels["example.com/ready"] != "true" {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}
