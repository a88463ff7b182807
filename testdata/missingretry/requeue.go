package missingretry

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// experimentContext scales the ReplicaSets of an experiment, as
// argo-rollouts' experiments controller does: the controller hands it a
// func that puts the experiment back on its work queue after a delay.
type experimentContext struct {
	client                 kubernetes.Interface
	experiment             *appsv1.Deployment
	enqueueExperimentAfter func(obj any, d time.Duration)
}

// A conflict is logged and the experiment requeued through the func field:
// the next pass re-reads the ReplicaSet and scales it again.
func (ec *experimentContext) scaleRequeuedOnConflict(ctx context.Context, rs *appsv1.ReplicaSet, replicas int32) error {
	live, err := ec.client.AppsV1().ReplicaSets(rs.Namespace).Get(ctx, rs.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	live.Spec.Replicas = &replicas
	if _, err := ec.client.AppsV1().ReplicaSets(live.Namespace).Update(ctx, live, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsConflict(err) {
			klog.Warningf("retrying scale of %s: %v", live.Name, err)
			ec.enqueueExperimentAfter(ec.experiment, time.Second)
			return nil
		}
		return err
	}
	return nil
}

// The control: the conflict is only logged, and the caller is told what
// success tells it.
func (ec *experimentContext) scaleConflictLogged(ctx context.Context, rs *appsv1.ReplicaSet, replicas int32) error {
	live, err := ec.client.AppsV1().ReplicaSets(rs.Namespace).Get(ctx, rs.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	live.Spec.Replicas = &replicas
	if _, err := ec.client.AppsV1().ReplicaSets(live.Namespace).Update(ctx, live, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*live"
		if apierrors.IsConflict(err) {
			klog.Warningf("conflict scaling %s: %v", live.Name, err)
			return nil
		}
		return err
	}
	return nil
}

// The methods above are run by the controller's workers.
var _ = []any{(*experimentContext).scaleConflictLogged}

// The functions above are run by the program's workers.
var _ = []any{(*experimentContext).scaleRequeuedOnConflict}
