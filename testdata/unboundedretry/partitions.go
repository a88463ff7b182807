package unboundedretry

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// A rolling update walks the partitions of a StatefulSet, one per round. A
// conflict of a round's Update is handed to retry.RetryOnConflict, which
// re-reads and backs off; going round moves to the next partition, it
// does not retry the write.
func rollPartitions(ctx context.Context, cs kubernetes.Interface, sts *appsv1.StatefulSet) error {
	for partition := *sts.Spec.Replicas - 1; partition >= 0; partition-- {
		sts.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}
		_, err := cs.AppsV1().StatefulSets(sts.Namespace).Update(ctx, sts, metav1.UpdateOptions{})
		if err != nil && apierrors.IsConflict(err) {
			err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
				fresh, err := cs.AppsV1().StatefulSets(sts.Namespace).Get(ctx, sts.Name, metav1.GetOptions{})
				if err != nil {
					return err
				}
				fresh.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}
				_, err = cs.AppsV1().StatefulSets(sts.Namespace).Update(ctx, fresh, metav1.UpdateOptions{})
				return err
			})
		}
		if err != nil {
			return err
		}
		if sts, err = cs.AppsV1().StatefulSets(sts.Namespace).Get(ctx, sts.Name, metav1.GetOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// The control: the conflict goes round the loop again at once, re-reading
// the StatefulSet and sending the same partition, with no bound on the
// attempts and no wait.
func rollPartitionRetryingInLoop(ctx context.Context, cs kubernetes.Interface, ns, name string, partition int32) error {
	for {
		sts, err := cs.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		sts.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}
		_, err = cs.AppsV1().StatefulSets(ns).Update(ctx, sts, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		if err != nil && apierrors.IsConflict(err) {
			continue
		}
		return err
	}
}

// The functions above are run by the controller's workers.
var _ = []any{rollPartitions, rollPartitionRetryingInLoop}
