package unconditionalpatch

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// A generic reconcile loop shared by several kinds: each kind gives a
// handler, and the loop reaches its methods through a generic interface.
// The handler's methods are exported, so that other packages can implement
// and call them; the calls of the package say what each one is for.
// RemoveFinalizer is called only where IsDeleted, whose every
// implementation in the package tests the deletion timestamp, is true: it
// removes the finalizer of an object being deleted, and a stale list that
// brought back another finalizer would be refused.

type JobHandler[T any] interface {
	GetJob(ctx context.Context, req ctrl.Request) (*T, error)
	IsDeleted(job *T) bool
	Suspended(job *T) bool
	RemoveFinalizer(ctx context.Context, job *T) error
	DropFinalizer(ctx context.Context, job *T) error
}

func RunJob[T any](ctx context.Context, h JobHandler[T], req ctrl.Request) error {
	job, err := h.GetJob(ctx, req)
	if err != nil {
		return err
	}
	if h.IsDeleted(job) {
		return h.RemoveFinalizer(ctx, job)
	}
	if h.Suspended(job) {
		return h.DropFinalizer(ctx, job)
	}
	return nil
}

type WidgetJobHandler struct {
	cli client.Client
}

var _ JobHandler[widgetsv1.Widget] = &WidgetJobHandler{}

func (h *WidgetJobHandler) GetJob(ctx context.Context, req ctrl.Request) (*widgetsv1.Widget, error) { // want GetJob:"returns read #0"
	var w widgetsv1.Widget
	if err := h.cli.Get(ctx, req.NamespacedName, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

func (WidgetJobHandler) IsDeleted(job *widgetsv1.Widget) bool {
	return job.DeletionTimestamp != nil && !job.DeletionTimestamp.IsZero()
}

func (WidgetJobHandler) Suspended(job *widgetsv1.Widget) bool {
	return job.Spec.Replicas != nil && *job.Spec.Replicas == 0
}

// RemoveFinalizer runs only for a Widget being deleted: not reported.
func (h *WidgetJobHandler) RemoveFinalizer(ctx context.Context, job *widgetsv1.Widget) error { // want RemoveFinalizer:"writes #2 with patch returning its error"
	newOne := job.DeepCopy()
	controllerutil.RemoveFinalizer(newOne, widgetFinalizer)
	return h.cli.Patch(ctx, newOne, client.MergeFrom(job))
}

// DropFinalizer, the positive control, runs for a suspended Widget that is
// not being deleted: the list it sends may drop a finalizer another
// controller has just added.
func (h *WidgetJobHandler) DropFinalizer(ctx context.Context, job *widgetsv1.Widget) error { // want DropFinalizer:"writes #2 with patch returning its error"
	newOne := job.DeepCopy()
	controllerutil.RemoveFinalizer(newOne, widgetFinalizer)
	return h.cli.Patch(ctx, newOne, client.MergeFrom(job)) // want "^unconditional-patch: Patch of newOne .*finalizers list"
}

var _ = []any{RunJob[widgetsv1.Widget]}
