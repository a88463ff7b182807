package unconditionalupdate

import (
	"context"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// widgetInstance carries the reconciled Widget with what the reconcile
// needs along with it, as many operators do.
type widgetInstance struct {
	instance widgetsv1.Widget
	log      logr.Logger
}

// WidgetInstanceReconciler reads the Widget into a field of a struct it
// builds, and passes the field on.
type WidgetInstanceReconciler struct {
	client.Client
}

func (r *WidgetInstanceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := widgetInstance{log: ctrl.LoggerFrom(ctx)}
	if err := r.Get(ctx, req.NamespacedName, &w.instance); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !controllerutil.ContainsFinalizer(&w.instance, "widgets.example.com/cleanup") {
		if err := r.addFinalizer(ctx, &w.instance); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// addFinalizer updates the Widget it is given, with the resourceVersion
// the reconcile read into the field: a 409 protects it, and its error is
// returned.
func (r *WidgetInstanceReconciler) addFinalizer(ctx context.Context, w *widgetsv1.Widget) error {
	controllerutil.AddFinalizer(w, "widgets.example.com/cleanup")
	return r.Update(ctx, w)
}

// The control: the field of the struct is filled from the spec of another
// Widget, not read, and the Update of it sends no resourceVersion.
func (r *WidgetInstanceReconciler) badCloneIntoField(ctx context.Context, src *widgetsv1.Widget, name string) error {
	w := widgetInstance{}
	w.instance.ObjectMeta = metav1.ObjectMeta{Name: name, Namespace: src.Namespace}
	w.instance.Spec = src.Spec
	return r.addFinalizer(ctx, &w.instance) // want "^unconditional-update: "
}

// The functions above are run by the controller's workers.
var _ = []any{(*WidgetInstanceReconciler).badCloneIntoField}
