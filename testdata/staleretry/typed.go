package staleretry

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"lostupdate.test/staleretry/retryutil"
)

// A scaler reads the Deployment once and then wraps only the write in
// RetryOnConflict: every attempt resends the resourceVersion of that one read.
func badScaleDeploymentReadBeforeRetry(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		deploy.Spec.Replicas = &replicas
		_, err := cs.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{}) // want "^stale-retry: .*deploy"
		return err
	})
}

// A node agent marks its pod's condition with retry.OnError(IsConflict) but
// the pod was fetched before the retry, so a conflict repeats until the backoff
// runs out.
func badPodStatusRetryOnErrorReadBeforeRetry(ctx context.Context, cs kubernetes.Interface, ns, podName string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, podName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
			Type:   "example.com/Warmed",
			Status: corev1.ConditionTrue,
		})
		_, err := cs.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{}) // want "^stale-retry: .*pod"
		return err
	})
}

// A helper receives the Service its caller already read and retries the write
// of that same object: the parameter's resourceVersion never changes.
func badRetryUpdateOfServiceParameter(ctx context.Context, cs kubernetes.Interface, svc *corev1.Service, selector map[string]string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		svc.Spec.Selector = selector
		_, err := cs.CoreV1().Services(svc.Namespace).Update(ctx, svc, metav1.UpdateOptions{}) // want "^stale-retry: .*svc"
		return err
	})
}

// The DeepCopy is taken before the retry, so the copy carries the same old
// resourceVersion on every attempt.
func badDeepCopyTakenBeforeRetry(ctx context.Context, cs kubernetes.Interface, ns, name, image string) error {
	current, err := cs.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	sts := current.DeepCopy()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		sts.Spec.Template.Spec.Containers[0].Image = image
		_, err := cs.AppsV1().StatefulSets(ns).Update(ctx, sts, metav1.UpdateOptions{}) // want "^stale-retry: Update inside retry.RetryOnConflict writes sts, made from current, which is read only outside .*; Get current inside the retried function"
		return err
	})
}

// The retry does re-read, but only to decide whether work is left; it then
// writes the object read before the retry, not the fresh one.
func badFreshReadOnlyInspectedInsideRetry(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if latest.Spec.Replicas != nil && *latest.Spec.Replicas == replicas {
			return nil
		}
		deploy.Spec.Replicas = &replicas
		_, err = cs.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{}) // want "^stale-retry: .*deploy"
		return err
	})
}

// The write goes through a helper in another package that updates its
// argument; the argument was read before the retry.
func badRetryConfigMapWriteThroughHelper(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.Data["reloaded-at"] = metav1.Now().String()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return retryutil.UpdateConfigMap(ctx, cs, cm) // want "^stale-retry: "
	})
}

// A secret rotator retries on conflicts and server timeouts (predicate calls
// IsConflict) but rotates the Secret it read before the retry.
func badSecretRotationRetryPredicateReadBeforeRetry(ctx context.Context, cs kubernetes.Interface, ns, name string, key []byte) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	retriable := func(err error) bool {
		return apierrors.IsConflict(err) || apierrors.IsServerTimeout(err)
	}
	return retry.OnError(retry.DefaultBackoff, retriable, func() error {
		secret.Data["tls.key"] = key
		_, err := cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}) // want "^stale-retry: .*secret"
		return err
	})
}

// The client-go documented shape: fetch inside the retried function, change,
// write, return the error unwrapped.
func okGetInsideRetry(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		deploy.Spec.Replicas = &replicas
		_, err = cs.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{})
		return err
	})
}

// The first attempt writes the object the caller already has; after a
// conflict the closure re-reads it, so later attempts carry a new version.
func okReReadOnlyAfterConflict(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap, key, value string) error {
	client := cs.CoreV1().ConfigMaps(cm.Namespace)
	var lastErr error
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if apierrors.IsConflict(lastErr) {
			latest, err := client.Get(ctx, cm.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			cm = latest
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data[key] = value
		_, lastErr = client.Update(ctx, cm, metav1.UpdateOptions{})
		return lastErr
	})
}

// The desired Service is computed once; each attempt takes the
// resourceVersion of a fresh read, so the precondition is current.
func okCopyFreshResourceVersionInsideRetry(ctx context.Context, cs kubernetes.Interface, desired *corev1.Service) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		existing, err := cs.CoreV1().Services(desired.Namespace).Get(ctx, desired.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		desired.ResourceVersion = existing.ResourceVersion
		desired.Spec.ClusterIP = existing.Spec.ClusterIP
		_, err = cs.CoreV1().Services(desired.Namespace).Update(ctx, desired, metav1.UpdateOptions{})
		return err
	})
}

// The written object is built inside the retry from a fresh read.
func okBuildFromFreshReadInsideRetry(ctx context.Context, cs kubernetes.Interface, ns, name string, labels map[string]string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current, err := cs.AppsV1().DaemonSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		updated := current.DeepCopy()
		if updated.Labels == nil {
			updated.Labels = map[string]string{}
		}
		for k, v := range labels {
			updated.Labels[k] = v
		}
		_, err = cs.AppsV1().DaemonSets(ns).Update(ctx, updated, metav1.UpdateOptions{})
		return err
	})
}

// The helper called inside the retry does its own Get before its Update.
func okHelperReadsAndWritesInsideRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return retryutil.SetConfigMapKey(ctx, cs, ns, name, "phase", "ready")
	})
}

// The helper only writes, but its argument was read inside the retry.
func okHelperWritesObjectReadInsideRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		delete(cm.Data, "stale-key")
		return retryutil.UpdateConfigMap(ctx, cs, cm)
	})
}

// borderline: the object was read outside, but OnError retries only server
// timeouts, so a 409 ends the retry at once; it is not a conflict retry.
// An operator retries a flaky API server, not conflicts.
func okRetryOnServerTimeoutOnly(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	nsObj, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if err != nil {
		return err
	}
	nsObj.Labels["example.com/owner"] = name
	return retry.OnError(retry.DefaultBackoff, apierrors.IsServerTimeout, func() error {
		_, err := cs.CoreV1().Namespaces().Update(ctx, nsObj, metav1.UpdateOptions{})
		return err
	})
}

// A plain read-modify-write without any retry: a conflict is returned to the
// caller, nothing is resent.
func okUpdateWithoutRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if deploy.Annotations == nil {
		deploy.Annotations = map[string]string{}
	}
	deploy.Annotations["example.com/restartedAt"] = metav1.Now().String()
	if _, err := cs.AppsV1().Deployments(ns).Update(ctx, deploy, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("restart %s/%s: %w", ns, name, err)
	}
	return nil
}

// A retry around the read-modify-write of an ordinary typed object: the
// retried function is the whole sequence, so the ReplicaSet is re-read.
func okWholeSequenceRetriedWithNamedFunction(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	orphan := func() error {
		rs, err := cs.AppsV1().ReplicaSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		rs.OwnerReferences = nil
		_, err = cs.AppsV1().ReplicaSets(ns).Update(ctx, rs, metav1.UpdateOptions{})
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, orphan)
}

// The functions above are run by the controller's workers.
var _ = []any{badDeepCopyTakenBeforeRetry, badFreshReadOnlyInspectedInsideRetry, badPodStatusRetryOnErrorReadBeforeRetry, badRetryConfigMapWriteThroughHelper, badRetryUpdateOfServiceParameter, badScaleDeploymentReadBeforeRetry, badSecretRotationRetryPredicateReadBeforeRetry}

// The functions above are run by the program's workers.
var _ = []any{okBuildFromFreshReadInsideRetry, okCopyFreshResourceVersionInsideRetry, okGetInsideRetry, okHelperReadsAndWritesInsideRetry, okHelperWritesObjectReadInsideRetry, okReReadOnlyAfterConflict, okRetryOnServerTimeoutOnly, okUpdateWithoutRetry, okWholeSequenceRetriedWithNamedFunction}
