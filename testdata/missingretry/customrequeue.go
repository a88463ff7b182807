package missingretry

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"

	"lostupdate.test/missingretry/workresult"
)

// A controller with a worker of its own, whose result says after how long
// to requeue the key. While the workloads are not ready, the phase is
// written with its error only logged, and the key is requeued after ten
// seconds: the next pass writes the phase again.
type versionSyncer struct {
	cs     kubernetes.Interface
	lister corelisters.ConfigMapLister
}

func (s *versionSyncer) sync(ctx context.Context, ns, name string, ready bool) (*workresult.Requeue, error) {
	cached, err := s.lister.ConfigMaps(ns).Get(name)
	if err != nil {
		return nil, err
	}
	cm := cached.DeepCopy()
	if !ready {
		cm.Data["phase"] = "Processing"
		if _, err := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "cannot write the phase")
		}
		return workresult.NewRequeue(ns+"/"+name, 10*time.Second), nil
	}
	return nil, nil
}

// The control: the result built with no delay asks for nothing, and the
// phase is lost on a conflict.
func (s *versionSyncer) syncOnce(ctx context.Context, ns, name string, ready bool) (*workresult.Requeue, error) {
	cached, err := s.lister.ConfigMaps(ns).Get(name)
	if err != nil {
		return nil, err
	}
	cm := cached.DeepCopy()
	if !ready {
		cm.Data["phase"] = "Processing"
		if _, err := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: "
			klog.ErrorS(err, "cannot write the phase")
		}
		return workresult.NewRequeue(ns+"/"+name, 0), nil
	}
	return nil, nil
}

var _ = []any{(*versionSyncer).sync, (*versionSyncer).syncOnce}
