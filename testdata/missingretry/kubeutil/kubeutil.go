// Package kubeutil holds small object-update helpers shared by an operator's
// controllers.
package kubeutil

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// SetAnnotation sets one annotation on cm and writes it. The caller owns the
// error.
func SetAnnotation(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap, key, value string) error {
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[key] = value
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// EnsureFinalizer adds finalizer to obj and writes it if it was missing.
func EnsureFinalizer(ctx context.Context, c client.Client, obj client.Object, finalizer string) error {
	if !controllerutil.AddFinalizer(obj, finalizer) {
		return nil
	}
	return c.Update(ctx, obj)
}

// UpdateDeploymentStatus writes the status subresource of d.
func UpdateDeploymentStatus(ctx context.Context, c client.Client, d *appsv1.Deployment) error {
	return c.Status().Update(ctx, d)
}

// MutateConfigMap reads the ConfigMap, applies mutate and writes it back,
// retrying the whole sequence on conflicts.
func MutateConfigMap(ctx context.Context, cs kubernetes.Interface, ns, name string, mutate func(*corev1.ConfigMap)) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		mutate(cm)
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// IgnoreConflict treats a conflict as success: the caller's write is then
// neither retried nor requeued.
func IgnoreConflict(err error) error {
	if apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// RequeueOnConflict turns a conflict into a requeue.
func RequeueOnConflict(err error) (ctrl.Result, error) {
	if apierrors.IsConflict(err) {
		return ctrl.Result{Requeue: true}, nil
	}
	return ctrl.Result{}, err
}
