package unconditionalupdate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TrafficSplitReconciler keeps a ConfigMap per app. One of its methods is
// left over from an older version: nothing calls it, so its Update of a
// built object never runs.
type TrafficSplitReconciler struct {
	client.Client
}

func (r *TrafficSplitReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if err := r.convertLegacy(ctx, req); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.sweep(ctx, req)
}

// convertLegacy is called by Reconcile: reported.
func (r *TrafficSplitReconciler) convertLegacy(ctx context.Context, req ctrl.Request) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace}}
	cm.Data = map[string]string{"split": "100"}
	return r.Update(ctx, cm) // want `^unconditional-update: Update writes cm, which is built without a resourceVersion`
}

// getWithConvert is called by nothing in the package, and an unexported
// method cannot be called from another one: dead code, not reported.
func (r *TrafficSplitReconciler) getWithConvert(ctx context.Context, req ctrl.Request) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace}}
	cm.Data = map[string]string{"split": "0"}
	return r.Update(ctx, cm)
}

// sweepers holds a method value in a package variable: it escapes, and
// whoever runs the table calls it.
var sweepers = map[string]func(*TrafficSplitReconciler, context.Context, ctrl.Request) error{
	"legacy": (*TrafficSplitReconciler).sweepLegacy,
}

func (r *TrafficSplitReconciler) sweep(ctx context.Context, req ctrl.Request) error {
	for _, s := range sweepers {
		if err := s(r, ctx, req); err != nil {
			return err
		}
	}
	return nil
}

func (r *TrafficSplitReconciler) sweepLegacy(ctx context.Context, req ctrl.Request) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: req.Name + "-legacy", Namespace: req.Namespace}}
	return r.Update(ctx, cm) // want `^unconditional-update: Update writes cm, which is built without a resourceVersion`
}
