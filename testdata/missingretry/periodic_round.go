package missingretry

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// A runner that, on each tick, lists its pods through a helper and hands
// the list to another, which relabels them and only logs a failed Update:
// the next tick lists the pods again and relabels what is still unlabelled.
type podRelabeler struct {
	c        client.Client
	interval time.Duration
}

func (m *podRelabeler) run(ctx context.Context) {
	ticker := time.NewTicker(m.interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if err := m.runOnce(ctx); err != nil {
				logf.FromContext(ctx).Error(err, "relabelling")
			}
		}
	}
}

func (m *podRelabeler) runOnce(ctx context.Context) error {
	pods, err := m.fetchPods(ctx)
	if err != nil {
		return err
	}
	return m.relabel(ctx, pods)
}

func (m *podRelabeler) fetchPods(ctx context.Context) (*corev1.PodList, error) {
	pl := &corev1.PodList{}
	if err := m.c.List(ctx, pl, client.MatchingLabels{"app": "runner"}); err != nil {
		return nil, err
	}
	return pl, nil
}

func (m *podRelabeler) relabel(ctx context.Context, pods *corev1.PodList) error {
	for i := range pods.Items {
		po := &pods.Items[i]
		if po.Labels["runner"] == po.Name {
			continue
		}
		// A budget per pod, created or updated through CreateOrUpdate,
		// which reads it again at each call: each round does.
		pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: po.Name, Namespace: po.Namespace}}
		if _, err := controllerutil.CreateOrUpdate(ctx, m.c, pdb, func() error {
			pdb.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"runner": po.Name}}
			pdb.Spec.MinAvailable = &intstr.IntOrString{Type: intstr.Int, IntVal: 1}
			return nil
		}); err != nil {
			logf.FromContext(ctx).Error(err, "protecting a pod")
			continue
		}
		po.Labels["runner"] = po.Name
		if err := m.c.Update(ctx, po); err != nil {
			logf.FromContext(ctx).Error(err, "relabelling a pod")
			continue
		}
	}
	return nil
}

// The control: the same budget written once, at start, its error logged.
func (m *podRelabeler) protectOnce(ctx context.Context, name, ns string) {
	pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	if _, err := controllerutil.CreateOrUpdate(ctx, m.c, pdb, func() error { // want `^missing-retry: CreateOrUpdate of pdb is a read-modify-write`
		pdb.Spec.MinAvailable = &intstr.IntOrString{Type: intstr.Int, IntVal: 1}
		return nil
	}); err != nil {
		logf.FromContext(ctx).Error(err, "protecting a pod")
	}
}

func (m *podRelabeler) StartProtected(ctx context.Context) error {
	m.protectOnce(ctx, "runner-0", "runners")
	return nil
}

func (m *podRelabeler) Start(ctx context.Context) error {
	go m.run(ctx)
	return nil
}

// The control: the pods are listed once, before the ticks, and each tick
// relabels that same list: a lost Update is never redone with a fresh read.
func (m *podRelabeler) runListedOnce(ctx context.Context) {
	pods, err := m.fetchPods(ctx)
	if err != nil {
		return
	}
	ticker := time.NewTicker(m.interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			m.relabelListed(ctx, pods)
		}
	}
}

func (m *podRelabeler) relabelListed(ctx context.Context, pods *corev1.PodList) {
	for i := range pods.Items {
		po := &pods.Items[i]
		po.Labels["runner"] = po.Name
		if err := m.c.Update(ctx, po); err != nil { // want `^missing-retry: Update of po is a read-modify-write`
			logf.FromContext(ctx).Error(err, "relabelling a pod")
		}
	}
}

func (m *podRelabeler) StartListedOnce(ctx context.Context) error {
	go m.runListedOnce(ctx)
	return nil
}
