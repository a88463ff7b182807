package missingretry

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// taskQueue runs its sync function for each task put on it, one at a
// time, as status syncers keep in a package of their own.
type taskQueue struct {
	queue workqueue.TypedInterface[string]
	sync  func(string) error
}

func newTaskQueue(sync func(string) error) *taskQueue {
	return &taskQueue{queue: workqueue.NewTyped[string](), sync: sync}
}

func (t *taskQueue) Enqueue(task string) { t.queue.Add(task) } // want Enqueue:"queues"

func (t *taskQueue) Run(stop <-chan struct{}) {
	wait.Until(t.worker, time.Second, stop)
}

func (t *taskQueue) worker() {
	for {
		task, quit := t.queue.Get()
		if quit {
			return
		}
		if err := t.sync(task); err != nil {
			klog.ErrorS(err, "cannot sync", "task", task)
		}
		t.queue.Done(task)
	}
}

// A poll that never says it is done puts a task on the queue every
// period, and the queue's sync function reads each Service again and
// writes its status: a skipped conflict is written again one period later.
type serviceStatusSyncer struct {
	cs    kubernetes.Interface
	ns    string
	tasks *taskQueue
}

func newServiceStatusSyncer(cs kubernetes.Interface, ns string) *serviceStatusSyncer {
	s := &serviceStatusSyncer{cs: cs, ns: ns}
	s.tasks = newTaskQueue(s.sync)
	return s
}

func (s *serviceStatusSyncer) Run(ctx context.Context) {
	go s.tasks.Run(ctx.Done())
	_ = wait.PollUntilContextCancel(ctx, time.Minute, true, func(context.Context) (bool, error) {
		s.tasks.Enqueue("sync status")
		return false, nil
	})
}

func (s *serviceStatusSyncer) sync(string) error {
	list, err := s.cs.CoreV1().Services(s.ns).List(context.TODO(), metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range list.Items {
		svc, err := s.cs.CoreV1().Services(s.ns).Get(context.TODO(), list.Items[i].Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "192.0.2.1"}}
		if _, err := s.cs.CoreV1().Services(s.ns).UpdateStatus(context.TODO(), svc, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "cannot update the Service status", "service", svc.Name)
		}
	}
	return nil
}

// The same queue, but the poll is done after its first round: the task is
// put on the queue once, and a skipped conflict is lost.
type onceStatusSyncer struct {
	cs    kubernetes.Interface
	ns    string
	tasks *taskQueue
}

func newOnceStatusSyncer(cs kubernetes.Interface, ns string) *onceStatusSyncer {
	s := &onceStatusSyncer{cs: cs, ns: ns}
	s.tasks = newTaskQueue(s.sync)
	return s
}

func (s *onceStatusSyncer) Run(ctx context.Context) {
	go s.tasks.Run(ctx.Done())
	_ = wait.PollUntilContextCancel(ctx, time.Minute, true, func(context.Context) (bool, error) {
		s.tasks.Enqueue("sync status")
		return true, nil
	})
}

func (s *onceStatusSyncer) sync(name string) error {
	svc, err := s.cs.CoreV1().Services(s.ns).Get(context.TODO(), name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "192.0.2.1"}}
	if _, err := s.cs.CoreV1().Services(s.ns).UpdateStatus(context.TODO(), svc, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: UpdateStatus of svc is a read-modify-write`
		klog.ErrorS(err, "cannot update the Service status", "service", svc.Name)
	}
	return nil
}

// Events of a mirror controller: a ticker puts a repair event on the
// queue every period; a worker takes the events off and switches on their
// type.
type repairEvent struct{}

type relabelEvent struct{ name string }

type endpointsMirror struct {
	cs     kubernetes.Interface
	ns     string
	period time.Duration
	events workqueue.TypedInterface[any]
}

func (m *endpointsMirror) watchLiveness(stop <-chan struct{}) {
	ticker := time.NewTicker(m.period)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			m.events.Add(&repairEvent{})
		case <-stop:
			return
		}
	}
}

// onServiceUpdate is an informer's handler: a relabel event is put on the
// queue once per change, never again.
func (m *endpointsMirror) onServiceUpdate(_, newObj any) {
	if svc, ok := newObj.(*corev1.Service); ok {
		m.events.Add(&relabelEvent{name: svc.Name})
	}
}

func (m *endpointsMirror) processEvents(ctx context.Context) {
	for {
		ev, quit := m.events.Get()
		if quit {
			return
		}
		switch e := ev.(type) {
		case *repairEvent:
			m.repair(ctx)
		case *relabelEvent:
			m.relabel(ctx, e.name)
		}
		m.events.Done(ev)
	}
}

// repair runs for the event every tick puts on the queue, and reads the
// Endpoints again each time: a skipped conflict is repaired next tick.
func (m *endpointsMirror) repair(ctx context.Context) {
	ep, err := m.cs.CoreV1().Endpoints(m.ns).Get(ctx, "mirror", metav1.GetOptions{})
	if err != nil {
		klog.ErrorS(err, "cannot read the Endpoints")
		return
	}
	ep.Subsets = []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "192.0.2.2"}}}}
	if _, err := m.cs.CoreV1().Endpoints(m.ns).Update(ctx, ep, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "cannot repair the Endpoints")
	}
}

// relabel runs for an event of a Service change, once: a skipped conflict
// is lost.
func (m *endpointsMirror) relabel(ctx context.Context, name string) {
	ep, err := m.cs.CoreV1().Endpoints(m.ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		klog.ErrorS(err, "cannot read the Endpoints")
		return
	}
	ep.Labels["example.com/mirrored"] = "true"
	if _, err := m.cs.CoreV1().Endpoints(m.ns).Update(ctx, ep, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of ep is a read-modify-write`
		klog.ErrorS(err, "cannot label the Endpoints")
	}
}

var _ = []any{newServiceStatusSyncer, newOnceStatusSyncer, (*serviceStatusSyncer).Run, (*onceStatusSyncer).Run, (*endpointsMirror).watchLiveness, (*endpointsMirror).onServiceUpdate, (*endpointsMirror).processEvents}
