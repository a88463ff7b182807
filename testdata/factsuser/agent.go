package factsuser

import (
	"context"

	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/facts"
)

// A node agent whose informer handler queues every Widget update on
// another package's wrapper of a work queue: the conflicting writer's
// event queues the Widget again, and the worker writes its status afresh.
// Not reported.
type WidgetAgent struct {
	Client client.Client
	Queue  *facts.TaskQueue
}

func (a *WidgetAgent) Start(ctx context.Context, c cache.Cache) error {
	inf, err := c.GetInformer(ctx, &widgetsv1.Widget{})
	if err != nil {
		return err
	}
	_, err = inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    a.onAdd,
		UpdateFunc: func(_, newObj any) { a.onAdd(newObj) },
	})
	return err
}

func (a *WidgetAgent) onAdd(obj any) {
	if w, ok := obj.(*widgetsv1.Widget); ok {
		a.Queue.Add(w.Name)
	}
}

func (a *WidgetAgent) Work(ctx context.Context) {
	for {
		name, shutdown := a.Queue.Get()
		if shutdown {
			return
		}
		a.process(ctx, name)
		a.Queue.Done(name)
	}
}

func (a *WidgetAgent) process(ctx context.Context, name string) {
	w := &widgetsv1.Widget{}
	if err := a.Client.Get(ctx, client.ObjectKey{Name: name}, w); err != nil {
		return
	}
	w.Status.Phase = "Seen"
	if err := a.Client.Status().Update(ctx, w); err != nil {
		klog.ErrorS(err, "cannot update the Widget status", "widget", name)
	}
}
