package applyretry

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	applymetav1 "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/util/retry"

	"lostupdate.test/applyretry/retryutil"
	widgetsv1ac "lostupdate.test/crd/applyconfigurations/widgets/v1"
	"lostupdate.test/crd/clientset/versioned"
)

// A Widget defaulter applies the spec fields it owns with the generated
// clientset inside RetryOnConflict.
func badCRDApplyInRetry(ctx context.Context, wc versioned.Interface, ns, name, image string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ac := widgetsv1ac.Widget(name, ns).WithSpec(widgetsv1ac.WidgetSpec().WithImage(image))
		_, err := wc.WidgetsV1().Widgets(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// The Widget status is applied inside the shared conflict wrapper of another
// package.
func badCRDApplyStatusInSharedWrapper(ctx context.Context, wc versioned.Interface, ns, name string, ready int32) error {
	return retryutil.OnConflict(func() error {
		ac := widgetsv1ac.Widget(name, ns).WithStatus(widgetsv1ac.WidgetStatus().
			WithReadyReplicas(ready).
			WithPhase("Running"))
		_, err := wc.WidgetsV1().Widgets(ns).ApplyStatus(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// The Widget status applied once; the error goes back to the work queue.
func okCRDApplyStatusNoRetry(ctx context.Context, wc versioned.Interface, ns, name string) error {
	ac := widgetsv1ac.Widget(name, ns).WithStatus(widgetsv1ac.WidgetStatus().WithConditions(
		applymetav1.Condition().
			WithType("Ready").
			WithStatus(metav1.ConditionTrue).
			WithReason("Reconciled").
			WithLastTransitionTime(metav1.Now()),
	))
	_, err := wc.WidgetsV1().Widgets(ns).ApplyStatus(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager})
	return err
}

// A forced status apply inside RetryOnConflict.
func okCRDForcedApplyStatusInRetry(ctx context.Context, wc versioned.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ac := widgetsv1ac.Widget(name, ns).WithStatus(widgetsv1ac.WidgetStatus().WithPhase("Degraded"))
		_, err := wc.WidgetsV1().Widgets(ns).ApplyStatus(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager, Force: true})
		return err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badCRDApplyInRetry, badCRDApplyStatusInSharedWrapper}

// The functions above are run by the program's workers.
var _ = []any{okCRDApplyStatusNoRetry, okCRDForcedApplyStatusInRetry}
