package missingretry

import (
	"context"

	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// A node agent that takes its informer from controller-runtime's cache and
// queues every update of a Widget of its own image, through the handler it
// also runs for additions: the conflicting writer's event queues the
// Widget again, and the worker reads it anew and writes the status
// afresh. Not reported.
type widgetAgent struct {
	client client.Client
	queue  workqueue.TypedRateLimitingInterface[string]
	image  string
}

func (a *widgetAgent) Start(ctx context.Context, c cache.Cache) error {
	inf, err := c.GetInformer(ctx, &widgetsv1.Widget{})
	if err != nil {
		return err
	}
	_, err = inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    a.onWidgetAdd,
		UpdateFunc: a.onWidgetUpdate,
	})
	return err
}

func (a *widgetAgent) onWidgetUpdate(_, newObj any) { a.onWidgetAdd(newObj) }

func (a *widgetAgent) onWidgetAdd(obj any) {
	w, ok := obj.(*widgetsv1.Widget)
	if !ok || w.Spec.Image != a.image {
		return
	}
	a.queue.Add(w.Name)
}

func (a *widgetAgent) process(ctx context.Context, name string) (err error) {
	w := &widgetsv1.Widget{}
	if err := a.client.Get(ctx, client.ObjectKey{Name: name}, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	defer func() {
		w.Status.Phase = "Pulled"
		if err != nil {
			w.Status.Phase = "Failed"
		}
		if updateErr := a.client.Status().Update(ctx, w); updateErr != nil {
			klog.ErrorS(updateErr, "cannot update the Widget status", "widget", name)
		}
	}()
	markWidgetSeen(ctx, a.client, w)
	return nil
}

// A helper that only the agent's worker calls.
func markWidgetSeen(ctx context.Context, c client.Client, w *widgetsv1.Widget) {
	w.Status.ObservedGeneration = w.Generation
	if err := c.Status().Update(ctx, w); err != nil {
		klog.ErrorS(err, "cannot mark the Widget seen", "widget", w.Name)
	}
}

// The same agent whose update handler queues only spec changes: a status
// change of another writer does not queue the Widget. Reported, although
// the agent above queues every Widget: its queue is worked by its own
// methods.
type specWidgetAgent struct {
	client client.Client
	queue  workqueue.TypedRateLimitingInterface[string]
}

func (a *specWidgetAgent) Start(ctx context.Context, c cache.Cache) error {
	inf, err := c.GetInformer(ctx, &widgetsv1.Widget{})
	if err != nil {
		return err
	}
	_, err = inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj any) {
			if oldObj.(*widgetsv1.Widget).Generation != newObj.(*widgetsv1.Widget).Generation {
				a.queueWidget(newObj)
			}
		},
	})
	return err
}

func (a *specWidgetAgent) queueWidget(obj any) {
	a.queue.Add(obj.(*widgetsv1.Widget).Name)
}

func (a *specWidgetAgent) process(ctx context.Context, name string) error {
	w := &widgetsv1.Widget{}
	if err := a.client.Get(ctx, client.ObjectKey{Name: name}, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	w.Status.Phase = "Pulled"
	if err := a.client.Status().Update(ctx, w); err != nil { // want `^missing-retry: Status\(\)\.Update of w is a read-modify-write`
		klog.ErrorS(err, "cannot update the Widget status", "widget", name)
	}
	return nil
}

var _ = []any{(*widgetAgent).process, (*specWidgetAgent).process}
