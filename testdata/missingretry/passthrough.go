package missingretry

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"lostupdate.test/missingretry/workresult"
)

// A reconciler split in two: Reconcile hands back what reconcile returns.
// The status helper only logs its error, and reconcile then returns
// success: the result Reconcile passes through is the zero result and a
// nil error, so the conflict is lost.
type RealmReconciler struct {
	client.Client
}

func (r *RealmReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	res, err := r.reconcile(ctx, req)
	return res, err
}

func (r *RealmReconciler) reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if err := checkRealm(cm); err != nil {
		return reconcile.Result{}, err
	}
	r.markReady(ctx, cm)
	return reconcile.Result{}, nil
}

func (r *RealmReconciler) markReady(ctx context.Context, cm *corev1.ConfigMap) {
	cm.Data["phase"] = "Ready"
	if err := r.Update(ctx, cm); err != nil { // want "^missing-retry: "
		logf.FromContext(ctx).Error(err, "cannot mark the realm ready")
	}
}

func checkRealm(cm *corev1.ConfigMap) error {
	if cm.Data["realm"] == "" {
		return errors.New("no realm")
	}
	return nil
}

// The same, but reconcile asks for a requeue after marking the realm: the
// result Reconcile passes through is that requeue, and the next pass
// writes the phase again.
type PolledRealmReconciler struct {
	client.Client
}

func (r *PolledRealmReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return r.reconcile(ctx, req)
}

func (r *PolledRealmReconciler) reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	r.markSeen(ctx, cm)
	return reconcile.Result{RequeueAfter: time.Minute}, nil
}

func (r *PolledRealmReconciler) markSeen(ctx context.Context, cm *corev1.ConfigMap) {
	cm.Data["phase"] = "Seen"
	if err := r.Update(ctx, cm); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the realm seen")
	}
}

// The same, through a reporting helper of another package that logs the
// outcome and hands back the result and the error it is given: success is
// handed on as success, and the conflict is lost.
type ReportedRealmReconciler struct {
	client.Client
}

func (r *ReportedRealmReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	res, err := r.reconcile(ctx, req)
	return workresult.Report(req.Name, res, err)
}

func (r *ReportedRealmReconciler) reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	r.markSynced(ctx, cm)
	return reconcile.Result{}, nil
}

func (r *ReportedRealmReconciler) markSynced(ctx context.Context, cm *corev1.ConfigMap) {
	cm.Data["phase"] = "Synced"
	if err := r.Update(ctx, cm); err != nil { // want "^missing-retry: "
		logf.FromContext(ctx).Error(err, "cannot mark the realm synced")
	}
}

// The same with a reporting helper that always asks for another pass: the
// next pass writes the phase again.
type RequeuedRealmReconciler struct {
	client.Client
}

func (r *RequeuedRealmReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	res, err := r.reconcile(ctx, req)
	return workresult.ReportAndRequeue(req.Name, res, err)
}

func (r *RequeuedRealmReconciler) reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	r.markPolled(ctx, cm)
	return reconcile.Result{}, nil
}

func (r *RequeuedRealmReconciler) markPolled(ctx context.Context, cm *corev1.ConfigMap) {
	cm.Data["phase"] = "Polled"
	if err := r.Update(ctx, cm); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the realm polled")
	}
}
