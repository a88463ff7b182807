package missingretry

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"

	"lostupdate.test/missingretry/workresult"
)

// A controller whose worker requeues by a result type of its own: a
// conflict answered with workresult.StatusConflict, a value named for a
// requeue, is requeued by the worker, not swallowed.
type placementSyncer struct {
	cs     kubernetes.Interface
	lister corelisters.ConfigMapLister
}

func (s *placementSyncer) reconcile(ctx context.Context, ns, name string) workresult.Result {
	cached, err := s.lister.ConfigMaps(ns).Get(name)
	if err != nil {
		return workresult.StatusError
	}
	cm := cached.DeepCopy()
	cm.Data["placement"] = "cluster-a"
	if _, err := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsConflict(err) {
			return workresult.StatusConflict
		}
		return workresult.StatusError
	}
	return workresult.StatusAllOK
}

// The error kept in a variable and mapped once, after the write.
func (s *placementSyncer) reconcileStatus(ctx context.Context, ns, name string) workresult.Result {
	cached, err := s.lister.ConfigMaps(ns).Get(name)
	if err != nil {
		return workresult.StatusError
	}
	cm := cached.DeepCopy()
	if cm.Labels["joined"] != "true" {
		cm.Labels["joined"] = "true"
		if _, updateErr := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); updateErr != nil {
			klog.ErrorS(updateErr, "cannot mark joined")
			err = updateErr
		}
	}
	if err != nil {
		if apierrors.IsConflict(err) {
			return workresult.StatusConflict
		}
		return workresult.StatusError
	}
	return workresult.StatusAllOK
}

// A failure only logged, then answered with workresult.StatusError: the
// worker requeues the key with backoff.
func (s *placementSyncer) reconcileLogged(ctx context.Context, ns, name string) workresult.Result {
	cached, err := s.lister.ConfigMaps(ns).Get(name)
	if err != nil {
		return workresult.StatusError
	}
	cm := cached.DeepCopy()
	cm.Data["placement"] = "cluster-c"
	if _, err := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "cannot place")
		return workresult.StatusError
	}
	if cm.Data["export"] == "" {
		return workresult.StatusError
	}
	return workresult.StatusAllOK
}

// Positive controls: a conflict answered with a value whose name says the
// worker does not retry it (one a path after the successful write returns
// too), and one answered with what success returns: the worker forgets
// the key.
func (s *placementSyncer) reconcileNoRetry(ctx context.Context, ns, name string) workresult.Result {
	cached, err := s.lister.ConfigMaps(ns).Get(name)
	if err != nil {
		return workresult.StatusError
	}
	cm := cached.DeepCopy()
	cm.Data["placement"] = "cluster-d"
	if _, err := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(a conflict is caught and ignored\)`
		if apierrors.IsConflict(err) {
			return workresult.StatusErrorNoRetry
		}
		return workresult.StatusError
	}
	if cm.Data["export"] == "" {
		return workresult.StatusErrorNoRetry // nothing to export: the worker gives up on the key
	}
	return workresult.StatusAllOK
}

func (s *placementSyncer) reconcileLoosely(ctx context.Context, ns, name string) workresult.Result {
	cached, err := s.lister.ConfigMaps(ns).Get(name)
	if err != nil {
		return workresult.StatusError
	}
	cm := cached.DeepCopy()
	cm.Data["placement"] = "cluster-b"
	if _, err := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(a conflict is caught and ignored\)`
		if apierrors.IsConflict(err) {
			return workresult.StatusAllOK
		}
		return workresult.StatusError
	}
	return workresult.StatusAllOK
}

var _ = []any{(*placementSyncer).reconcile, (*placementSyncer).reconcileStatus, (*placementSyncer).reconcileLogged, (*placementSyncer).reconcileNoRetry, (*placementSyncer).reconcileLoosely}
