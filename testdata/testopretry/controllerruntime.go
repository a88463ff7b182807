package testopretry

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// SecretCleanupReconciler removes its finalizer from a Secret with a guarded
// raw JSON patch inside RetryOnConflict.
type SecretCleanupReconciler struct {
	client.Client
}

func (r *SecretCleanupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var secret corev1.Secret
		if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
			return err
		}
		i := slices.Index(secret.Finalizers, finalizer)
		if i < 0 {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/finalizers/%d","value":%q},{"op":"remove","path":"/metadata/finalizers/%d"}]`, i, finalizer, i)
		return r.Patch(ctx, &secret, client.RawPatch(types.JSONPatchType, []byte(patch))) // want "^test-op-retry: "
	})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// WidgetPhaseReconciler moves the Widget's phase forward only from the phase
// it read (a test on /status/phase), inside RetryOnConflict.
type WidgetPhaseReconciler struct {
	client.Client
}

func (r *WidgetPhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var widget widgetsv1.Widget
		if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
			return err
		}
		if widget.Status.Phase != "Pending" {
			return nil
		}
		data, err := json.Marshal([]map[string]interface{}{
			{"op": "test", "path": "/status/phase", "value": "Pending"},
			{"op": "replace", "path": "/status/phase", "value": "Provisioning"},
		})
		if err != nil {
			return err
		}
		return r.Status().Patch(ctx, &widget, client.RawPatch(types.JSONPatchType, data)) // want "^test-op-retry: "
	})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// LockedFinalizerReconciler uses a merge patch with the optimistic lock inside
// RetryOnConflict: its precondition fails with 409, which is retried.
type LockedFinalizerReconciler struct {
	client.Client
}

func (r *LockedFinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var deploy appsv1.Deployment
		if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
			return err
		}
		patch := client.MergeFromWithOptions(deploy.DeepCopy(), client.MergeFromWithOptimisticLock{})
		if !controllerutil.RemoveFinalizer(&deploy, finalizer) {
			return nil
		}
		return r.Patch(ctx, &deploy, patch)
	})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// GuardedPhaseReconciler sends the guarded phase patch once and returns the
// error: the work queue requeues, and the next reconcile reads again.
type GuardedPhaseReconciler struct {
	client.Client
}

func (r *GuardedPhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"replace","path":"/status/phase","value":"Ready"}]`, widget.ResourceVersion)
	if err := r.Status().Patch(ctx, &widget, client.RawPatch(types.JSONPatchType, []byte(patch))); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
