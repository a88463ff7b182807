package missingretry

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// A syncer written by hand: each round lists the ConfigMaps again, works
// out which ones are out of date, and hands them to a helper that writes
// them and skips a conflict. The next round lists them again and redoes
// the write, so a skipped conflict is retried one period later.
type configSyncer struct {
	cs     kubernetes.Interface
	ns     string
	period time.Duration
}

func (s *configSyncer) Run(stop <-chan struct{}) {
	go func() {
		for {
			<-time.After(s.period)
			items, err := s.listAll()
			if err != nil {
				klog.ErrorS(err, "cannot list")
				continue
			}
			outdated := s.findOutdated(items)
			if err := s.updateAll(outdated); err != nil {
				klog.ErrorS(err, "cannot update")
			}
			s.updateEach(outdated)
		}
	}()
	<-stop
}

func (s *configSyncer) listAll() (map[string]corev1.ConfigMap, error) {
	list, err := s.cs.CoreV1().ConfigMaps(s.ns).List(context.TODO(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	all := map[string]corev1.ConfigMap{}
	for _, cm := range list.Items {
		all[cm.Name] = cm
	}
	return all, nil
}

func (s *configSyncer) findOutdated(items map[string]corev1.ConfigMap) map[string]*corev1.ConfigMap {
	outdated := map[string]*corev1.ConfigMap{}
	for name, cm := range items {
		if cm.Data["synced"] != "true" {
			cm := cm.DeepCopy()
			cm.Data["synced"] = "true"
			outdated[name] = cm
		}
	}
	return outdated
}

func (s *configSyncer) updateAll(outdated map[string]*corev1.ConfigMap) error {
	for n := range outdated {
		if _, err := s.cs.CoreV1().ConfigMaps(s.ns).Update(context.TODO(), outdated[n], metav1.UpdateOptions{}); err != nil {
			if apierrors.IsConflict(err) {
				continue
			}
			return err
		}
	}
	return nil
}

func (s *configSyncer) updateEach(outdated map[string]*corev1.ConfigMap) {
	for _, cm := range outdated {
		if _, err := s.cs.CoreV1().ConfigMaps(s.ns).Update(context.TODO(), cm, metav1.UpdateOptions{}); err != nil {
			if apierrors.IsConflict(err) {
				continue
			}
			klog.ErrorS(err, "cannot update", "configmap", cm.Name)
		}
	}
}

// The control: the same helper, called once when the syncer starts and by
// no period, loses the skipped conflict for good.
type onceSyncer struct {
	configSyncer
}

func (s *onceSyncer) Start() error {
	items, err := s.listAll()
	if err != nil {
		return err
	}
	return s.updateOnce(s.findOutdated(items))
}

func (s *onceSyncer) updateOnce(outdated map[string]*corev1.ConfigMap) error {
	for n := range outdated {
		if _, err := s.cs.CoreV1().ConfigMaps(s.ns).Update(context.TODO(), outdated[n], metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of outdated\[n\] is a read-modify-write`
			if apierrors.IsConflict(err) {
				continue
			}
			return err
		}
	}
	return nil
}

// The control: a periodic loop that hands the helper the ConfigMaps it
// read once, before the loop: every round resends the same versions.
type staleSyncer struct {
	configSyncer
}

func (s *staleSyncer) Run(stop <-chan struct{}) error {
	items, err := s.listAll()
	if err != nil {
		return err
	}
	outdated := s.findOutdated(items)
	for {
		select {
		case <-stop:
			return nil
		case <-time.After(s.period):
		}
		if err := s.updateStale(outdated); err != nil {
			klog.ErrorS(err, "cannot update")
		}
	}
}

func (s *staleSyncer) updateStale(outdated map[string]*corev1.ConfigMap) error {
	for n := range outdated {
		if _, err := s.cs.CoreV1().ConfigMaps(s.ns).Update(context.TODO(), outdated[n], metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of outdated\[n\] is a read-modify-write`
			if apierrors.IsConflict(err) {
				continue
			}
			return err
		}
	}
	return nil
}

// The control: each round hands the helper the ConfigMap a field holds,
// which nothing reads again: every round resends the same version.
type cachedSyncer struct {
	configSyncer
	cached *corev1.ConfigMap
}

func (s *cachedSyncer) Run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(s.period):
		}
		s.updateCached(s.cached)
	}
}

func (s *cachedSyncer) updateCached(cm *corev1.ConfigMap) {
	cm.Data["synced"] = "true"
	if _, err := s.cs.CoreV1().ConfigMaps(s.ns).Update(context.TODO(), cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write`
		klog.ErrorS(err, "cannot update", "configmap", cm.Name)
	}
}

var _ = []any{(*configSyncer).Run, (*onceSyncer).Start, (*staleSyncer).Run, (*cachedSyncer).Run}
