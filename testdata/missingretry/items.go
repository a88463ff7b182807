package missingretry

import (
	"context"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// An arbitrator that each period takes the jobs its add events stored in a
// map, sorts them, and marks each one. The jobs are the copies the events
// stored, which nothing reads again: a marking lost to a conflict resends
// the same stale object every period and never succeeds. The Update of one
// job refreshes that job from the server's answer; the next job the loop
// takes is another object, which it does not refresh.
type jobArbitrator struct {
	c       client.Client
	mu      sync.Mutex
	waiting map[types.UID]*corev1.ConfigMap
	orders  []func([]*corev1.ConfigMap) []*corev1.ConfigMap
}

func (a *jobArbitrator) add(job *corev1.ConfigMap) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.waiting[job.UID] = job.DeepCopy()
}

func (a *jobArbitrator) Start(ctx context.Context) {
	wait.Until(a.arbitrate, time.Second, ctx.Done())
}

func (a *jobArbitrator) arbitrate() {
	jobs := a.copyJobs()
	jobs = a.sort(jobs)
	for _, job := range jobs {
		if job.Data["forbidden"] == "true" {
			a.markFailed(job)
			continue
		}
		a.markPassed(job)
	}
}

func (a *jobArbitrator) copyJobs() []*corev1.ConfigMap {
	a.mu.Lock()
	defer a.mu.Unlock()
	jobs := make([]*corev1.ConfigMap, 0, len(a.waiting))
	for _, job := range a.waiting {
		jobs = append(jobs, job)
	}
	sort.Slice(jobs, func(i, j int) bool { return jobs[i].Name < jobs[j].Name })
	return jobs
}

func (a *jobArbitrator) sort(jobs []*corev1.ConfigMap) []*corev1.ConfigMap {
	for _, order := range a.orders {
		jobs = order(jobs)
	}
	return jobs
}

func (a *jobArbitrator) markPassed(job *corev1.ConfigMap) {
	job.Data["passed"] = "true"
	if err := a.c.Update(context.TODO(), job); err != nil { // want `^missing-retry: Update of job is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		klog.ErrorS(err, "cannot mark the job passed", "job", job.Name)
		return
	}
	a.mu.Lock()
	delete(a.waiting, job.UID)
	a.mu.Unlock()
}

func (a *jobArbitrator) markFailed(job *corev1.ConfigMap) {
	job.Data["phase"] = "Failed"
	_ = a.c.Update(context.TODO(), job) // want `^missing-retry: Update of job is a read-modify-write whose 409 Conflict reaches no retry \(its error is dropped\)`
	a.mu.Lock()
	delete(a.waiting, job.UID)
	a.mu.Unlock()
}

var _ = []any{(*jobArbitrator).Start, (*jobArbitrator).add}
