package facts

import "k8s.io/client-go/util/workqueue"

// TaskQueue wraps a work queue of object names, the way node agents share
// one shape for each of their workers.
type TaskQueue struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func NewTaskQueue() *TaskQueue {
	return &TaskQueue{queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
}

func (q *TaskQueue) Add(task string) { q.queue.Add(task) } // want Add:"queues"

func (q *TaskQueue) Get() (string, bool) { return q.queue.Get() }

func (q *TaskQueue) Done(task string) { q.queue.Done(task) }
