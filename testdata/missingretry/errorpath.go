package missingretry

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Best-effort status writes on error paths: the reconcile returns the
// original error, so the work queue requeues it and the next pass writes the
// status again.
type PackageRevisionReconciler struct {
	kube client.Client
}

func (r *PackageRevisionReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pod := &corev1.Pod{}
	if err := r.kube.Get(ctx, req.NamespacedName, pod); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if err := fetchPackage(ctx, pod); err != nil {
		err = fmt.Errorf("cannot fetch package: %w", err)
		pod.Status.Message = err.Error()
		_ = r.kube.Status().Update(ctx, pod)
		return reconcile.Result{}, err
	}
	if err := lintPackage(pod); err != nil {
		pod.Status.Message = err.Error()
		if uerr := r.kube.Status().Update(ctx, pod); uerr != nil {
			logf.FromContext(ctx).Error(uerr, "cannot update status")
		}
		return reconcile.Result{}, fmt.Errorf("invalid package: %w", err)
	}
	if !podReady(pod) {
		pod.Status.Message = "waiting"
		_ = r.kube.Status().Update(ctx, pod)
		return reconcile.Result{RequeueAfter: 30 * time.Second}, nil
	}
	pod.Status.Message = "healthy"
	_ = r.kube.Status().Update(ctx, pod) // want "^missing-retry: .*pod .*dropped.*; return its error"
	return reconcile.Result{}, nil
}

// One path after the dropped write fails, the other returns nil: the
// conflict is lost on that one.
type PackageRuntimeReconciler struct {
	kube client.Client
}

func (r *PackageRuntimeReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pod := &corev1.Pod{}
	if err := r.kube.Get(ctx, req.NamespacedName, pod); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	pod.Status.Message = "deploying"
	_ = r.kube.Status().Update(ctx, pod) // want "^missing-retry: .*pod"
	if err := fetchPackage(ctx, pod); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, nil
}

// markFailed drops the error of its status write; every caller then fails.
func (r *PackageRuntimeReconciler) markFailed(ctx context.Context, pod *corev1.Pod, err error) {
	pod.Status.Message = err.Error()
	_ = r.kube.Status().Update(ctx, pod)
}

func (r *PackageRuntimeReconciler) install(ctx context.Context, pod *corev1.Pod) error {
	if err := fetchPackage(ctx, pod); err != nil {
		r.markFailed(ctx, pod, err)
		return err
	}
	if err := lintPackage(pod); err != nil {
		r.markFailed(ctx, pod, err)
		return fmt.Errorf("lint: %w", err)
	}
	return nil
}

// markDone drops the error of its status write, and a caller then returns
// nil.
func (r *PackageRuntimeReconciler) markDone(ctx context.Context, pod *corev1.Pod) {
	pod.Status.Message = "done"
	_ = r.kube.Status().Update(ctx, pod) // want "^missing-retry: .*pod"
}

func (r *PackageRuntimeReconciler) finish(ctx context.Context, pod *corev1.Pod) error {
	if err := lintPackage(pod); err != nil {
		r.markDone(ctx, pod)
		return err
	}
	r.markDone(ctx, pod)
	return nil
}

func fetchPackage(ctx context.Context, pod *corev1.Pod) error {
	if pod.Spec.NodeName == "" {
		return errors.New("no node")
	}
	return ctx.Err()
}

func lintPackage(pod *corev1.Pod) error {
	if len(pod.Spec.Containers) == 0 {
		return errors.New("no containers")
	}
	return nil
}

func podReady(pod *corev1.Pod) bool { return pod.Status.Phase == corev1.PodRunning }

// Exclusive updates between replicas: a conflict answers false, "another
// replica took it", which the caller acts on; success answers true.
func claimPod(ctx context.Context, c client.Client, pod *corev1.Pod, node string) (bool, error) {
	pod.Annotations["example.com/owner"] = node
	err := c.Update(ctx, pod)
	if err == nil {
		return true, nil
	}
	if apierrors.IsConflict(err) {
		return false, nil
	} else {
		return false, err
	}
}

func claimPodShort(ctx context.Context, c client.Client, pod *corev1.Pod, node string) (bool, error) {
	pod.Annotations["example.com/owner"] = node
	err := c.Update(ctx, pod)
	if apierrors.IsConflict(err) {
		return false, nil
	}
	return err == nil, err
}

// A conflict answers exactly what success does: it is swallowed.
func claimPodSwallowed(ctx context.Context, c client.Client, pod *corev1.Pod, node string) (bool, error) {
	pod.Annotations["example.com/owner"] = node
	err := c.Update(ctx, pod) // want "^missing-retry: .*pod.*return the conflict as an error"
	if err == nil {
		return true, nil
	}
	if apierrors.IsConflict(err) {
		return true, nil
	}
	return false, err
}

func labelPodSwallowed(ctx context.Context, c client.Client, pod *corev1.Pod) error {
	pod.Labels["example.com/seen"] = "true"
	err := c.Update(ctx, pod) // want "^missing-retry: .*pod"
	if apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// A deferred status write whose conflict sets the named result to a
// requeue.
type SecretSyncReconciler struct {
	client.Client
}

func (r *SecretSyncReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, err error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	current := *secret.DeepCopy()
	defer func() {
		if equality.Semantic.DeepEqual(current, secret) {
			return
		}
		updateErr := r.Update(ctx, &secret)
		if updateErr == nil {
			return
		}
		if apierrors.IsConflict(updateErr) {
			if err == nil {
				result = ctrl.Result{Requeue: true}
			}
			return
		}
		logf.FromContext(ctx).Error(updateErr, "cannot update secret")
		if err == nil {
			err = updateErr
		}
	}()
	secret.Labels["example.com/synced"] = "true"
	return ctrl.Result{}, nil
}

// A deferred status write whose conflict is only logged.
type SecretGenericReconciler struct {
	client.Client
}

func (r *SecretGenericReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, err error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	current := *secret.DeepCopy()
	defer func() {
		if equality.Semantic.DeepEqual(current, secret) {
			return
		}
		updateErr := r.Update(ctx, &secret) // want "^missing-retry: .*secret .*only logged.*; requeue on conflict, or wrap"
		if updateErr != nil {
			logf.FromContext(ctx).Error(updateErr, "cannot update secret")
		}
	}()
	secret.Labels["example.com/synced"] = "true"
	return ctrl.Result{}, nil
}

// A deferred status write that ignores a conflict and logs other errors.
type SecretTemplateReconciler struct {
	client.Client
}

func (r *SecretTemplateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	current := *secret.DeepCopy()
	defer func() {
		if equality.Semantic.DeepEqual(current, secret) {
			return
		}
		updateErr := r.Update(ctx, &secret) // want "^missing-retry: .*secret"
		if updateErr != nil && !apierrors.IsConflict(updateErr) {
			logf.FromContext(ctx).Error(updateErr, "cannot update secret")
		}
	}()
	secret.Labels["example.com/templated"] = "true"
	return ctrl.Result{}, nil
}

// With a deferred call the results go through slots: the error path returns
// the original error, the other path nil.
type ClaimBindingReconciler struct {
	client client.Client
}

func (r *ClaimBindingReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	pod := &corev1.Pod{}
	if err := r.client.Get(ctx, req.NamespacedName, pod); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if err := fetchPackage(ctx, pod); err != nil {
		pod.Status.Message = err.Error()
		_ = r.client.Status().Update(ctx, pod)
		return reconcile.Result{}, err
	}
	if pod.Spec.NodeName != "node-a" {
		pod.Status.Message = "bound elsewhere"
		_ = r.client.Status().Update(ctx, pod) // want "^missing-retry: .*pod"
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, nil
}

// A periodic reconcile, as percona's operators have: every pass ends in an
// error or a requeue after a few seconds, and a helper of a helper logs the
// failure of its write. The next pass writes again.
type UserSecretReconciler struct {
	kube        client.Client
	reconcileIn time.Duration
}

func (r *UserSecretReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	rr := reconcile.Result{RequeueAfter: r.reconcileIn}
	if err := r.reconcileUsers(ctx, req.Namespace); err != nil {
		return reconcile.Result{}, fmt.Errorf("reconcile users: %w", err)
	}
	return rr, nil
}

func (r *UserSecretReconciler) reconcileUsers(ctx context.Context, ns string) error {
	if ns == "" {
		return nil
	}
	if err := r.handleUsers(ctx, ns); err != nil {
		return fmt.Errorf("handle users: %w", err)
	}
	return nil
}

func (r *UserSecretReconciler) handleUsers(ctx context.Context, ns string) error {
	var secrets corev1.SecretList
	if err := r.kube.List(ctx, &secrets, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range secrets.Items {
		if err := r.rotatePassword(ctx, &secrets.Items[i]); err != nil {
			logf.FromContext(ctx).Error(err, "rotate password", "secret", secrets.Items[i].Name)
			continue
		}
	}
	return nil
}

func (r *UserSecretReconciler) rotatePassword(ctx context.Context, sec *corev1.Secret) error {
	if sec.Annotations == nil {
		sec.Annotations = map[string]string{}
	}
	sec.Annotations["example.com/rotated"] = time.Now().UTC().Format(time.RFC3339)
	return r.kube.Update(ctx, sec)
}

// The same chain under a reconcile that ends one pass without a requeue:
// the failure logged two calls down is lost there.
type OneShotUserSecretReconciler struct {
	kube client.Client
}

func (r *OneShotUserSecretReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if err := r.reconcileUsers(ctx, req.Namespace); err != nil {
		return reconcile.Result{}, fmt.Errorf("reconcile users: %w", err)
	}
	return reconcile.Result{}, nil
}

func (r *OneShotUserSecretReconciler) reconcileUsers(ctx context.Context, ns string) error {
	if ns == "" {
		return nil
	}
	if err := r.handleUsers(ctx, ns); err != nil {
		return fmt.Errorf("handle users: %w", err)
	}
	return nil
}

func (r *OneShotUserSecretReconciler) handleUsers(ctx context.Context, ns string) error {
	var secrets corev1.SecretList
	if err := r.kube.List(ctx, &secrets, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range secrets.Items {
		if err := r.rotatePassword(ctx, &secrets.Items[i]); err != nil { // want "^missing-retry: rotatePassword of "
			logf.FromContext(ctx).Error(err, "rotate password", "secret", secrets.Items[i].Name)
			continue
		}
	}
	return nil
}

func (r *OneShotUserSecretReconciler) rotatePassword(ctx context.Context, sec *corev1.Secret) error {
	if sec.Annotations == nil {
		sec.Annotations = map[string]string{}
	}
	sec.Annotations["example.com/rotated"] = time.Now().UTC().Format(time.RFC3339)
	return r.kube.Update(ctx, sec)
}

// A reconcile that returns what its helper returns: when the write two
// calls down fails, the helper still returns nil, and so does the reconcile.
type StampReconciler struct {
	kube client.Client
}

func (r *StampReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, r.sync(ctx, req)
}

func (r *StampReconciler) sync(ctx context.Context, req reconcile.Request) error {
	var cm corev1.ConfigMap
	if err := r.kube.Get(ctx, req.NamespacedName, &cm); err != nil {
		return client.IgnoreNotFound(err)
	}
	r.stamp(ctx, &cm)
	return nil
}

func (r *StampReconciler) stamp(ctx context.Context, cm *corev1.ConfigMap) {
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/seen"] = time.Now().UTC().Format(time.RFC3339)
	if err := r.kube.Update(ctx, cm); err != nil { // want "^missing-retry: Update of cm"
		logf.FromContext(ctx).Error(err, "stamp")
	}
}

// A write in a goroutine: the requeue of the reconcile that started it
// does not wait for it, and its failure reaches no one.
type BackgroundStampReconciler struct {
	kube client.Client
}

func (r *BackgroundStampReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if err := r.start(ctx, req); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{RequeueAfter: time.Minute}, nil
}

func (r *BackgroundStampReconciler) start(ctx context.Context, req reconcile.Request) error {
	var cm corev1.ConfigMap
	if err := r.kube.Get(ctx, req.NamespacedName, &cm); err != nil {
		return client.IgnoreNotFound(err)
	}
	go r.stamp(context.WithoutCancel(ctx), &cm)
	return nil
}

func (r *BackgroundStampReconciler) stamp(ctx context.Context, cm *corev1.ConfigMap) {
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/seen"] = time.Now().UTC().Format(time.RFC3339)
	if err := r.kube.Update(ctx, cm); err != nil { // want "^missing-retry: Update of cm"
		logf.FromContext(ctx).Error(err, "stamp")
	}
}

// An event loop writes each event's object once and logs a failure. The
// runnable's Start fails only when the loop ends, at shutdown, which
// retries nothing.
type EventSyncer struct {
	kube   client.Client
	events chan *corev1.ConfigMap
}

func (s *EventSyncer) Start(ctx context.Context) error {
	s.run(ctx)
	return errors.New("event loop stopped")
}

func (s *EventSyncer) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case cm, ok := <-s.events:
			if !ok {
				return
			}
			s.handle(ctx, cm)
		}
	}
}

func (s *EventSyncer) handle(ctx context.Context, cm *corev1.ConfigMap) {
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/seen"] = cm.Data["x"]
	if err := s.kube.Update(ctx, cm); err != nil { // want "^missing-retry: Update of cm"
		logf.FromContext(ctx).Error(err, "stamp")
	}
}

// The functions above are run by the controller's workers.
var _ = []any{claimPodSwallowed, labelPodSwallowed}

// The functions above are run by the program's workers.
var _ = []any{(*PackageRuntimeReconciler).finish, (*PackageRuntimeReconciler).install, claimPod, claimPodShort}
