package applyretry

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	"lostupdate.test/applyretry/retryutil"
)

const fieldManager = "widget-operator"

// A scaler server-side applies replicas inside RetryOnConflict, as it did
// with Update before migrating: a 409 here is a field-ownership conflict
// with the HPA, which every retry meets again.
func badTypedApplyInRetryOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ac := appsv1ac.Deployment(name, ns).
			WithSpec(appsv1ac.DeploymentSpec().WithReplicas(replicas))
		_, err := cs.AppsV1().Deployments(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// A readiness gate applied to the Pod status inside RetryOnConflict.
func badTypedApplyStatusInRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		ac := corev1ac.Pod(name, ns).WithStatus(corev1ac.PodStatus().WithConditions(
			corev1ac.PodCondition().
				WithType("target-health.example.com/registered").
				WithStatus(corev1.ConditionTrue).
				WithLastTransitionTime(metav1.Now()),
		))
		_, err := cs.CoreV1().Pods(ns).ApplyStatus(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// A raw apply patch (ApplyPatchType) retried by retry.OnError on conflicts.
func badApplyPatchTypeInOnErrorConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	manifest := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":%q},"data":{"mode":"active"}}`, name, ns)
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		_, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.ApplyPatchType, []byte(manifest), metav1.PatchOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// The extract/modify/apply workflow, re-reading on every attempt: re-reading
// does not clear a field-ownership conflict either.
func badExtractModifyApplyInRetry(ctx context.Context, cs kubernetes.Interface, ns, name, image string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		ac, err := appsv1ac.ExtractDeployment(deploy, fieldManager)
		if err != nil {
			return err
		}
		ac.WithSpec(appsv1ac.DeploymentSpec().WithTemplate(corev1ac.PodTemplateSpec().WithSpec(
			corev1ac.PodSpec().WithContainers(corev1ac.Container().WithName("app").WithImage(image)),
		)))
		_, err = cs.AppsV1().Deployments(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// A hand-written loop that sleeps and tries the apply again on a conflict.
func badTypedApplyInHandWrittenLoop(ctx context.Context, cs kubernetes.Interface, ns, name string, data map[string]string) error {
	ac := corev1ac.ConfigMap(name, ns).WithData(data)
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		_, err = cs.CoreV1().ConfigMaps(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// The operator's shared conflict wrapper from another package, around an
// apply of a Service.
func badTypedApplyInSharedWrapper(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retryutil.OnConflict(func() error {
		ac := corev1ac.Service(name, ns).WithSpec(corev1ac.ServiceSpec().
			WithSelector(map[string]string{"app": name}).
			WithPorts(corev1ac.ServicePort().WithName("http").WithPort(80)))
		_, err := cs.CoreV1().Services(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// borderline: wait.ExponentialBackoff is not one of the client-go retry
// helpers, but a condition returning (false, nil) on a conflict retries
// conflicts exactly as RetryOnConflict does.
// wait.ExponentialBackoff whose condition retries on conflict, around an
// apply of a namespace label.
func badTypedApplyInExponentialBackoff(ctx context.Context, cs kubernetes.Interface, nsName string) error {
	ac := corev1ac.Namespace(nsName).WithLabels(map[string]string{"pod-security.kubernetes.io/enforce": "baseline"})
	return wait.ExponentialBackoff(retry.DefaultBackoff, func() (bool, error) {
		_, err := cs.CoreV1().Namespaces().Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// A package-local wrapper of RetryOnConflict used around an apply.
func withConflictRetry(fn func() error) error {
	return retry.RetryOnConflict(retry.DefaultRetry, fn)
}

func badTypedApplyInLocalWrapper(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return withConflictRetry(func() error {
		ac := corev1ac.Secret(name, ns).WithStringData(map[string]string{"endpoint": "https://widgets.example.com"})
		_, err := cs.CoreV1().Secrets(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}) // want "^apply-retry: "
		return err
	})
}

// Server-Side Apply with no retry: a conflict is returned to the caller.
func okTypedApplyNoRetry(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	ac := appsv1ac.Deployment(name, ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(replicas))
	_, err := cs.AppsV1().Deployments(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager})
	return err
}

// A forced apply inside RetryOnConflict: force takes the conflicting fields,
// so the retry is only redundant.
func okTypedForcedApplyInRetry(ctx context.Context, cs kubernetes.Interface, ns, name string, data map[string]string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ac := corev1ac.ConfigMap(name, ns).WithData(data)
		_, err := cs.CoreV1().ConfigMaps(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager, Force: true})
		return err
	})
}

// An apply retried only on server timeouts.
func okTypedApplyRetriedOnTimeout(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	return retry.OnError(retry.DefaultBackoff, apierrors.IsServerTimeout, func() error {
		ac := appsv1ac.StatefulSet(name, ns).WithSpec(appsv1ac.StatefulSetSpec().WithReplicas(replicas))
		_, err := cs.AppsV1().StatefulSets(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager})
		return err
	})
}

// isTransient reports errors worth another try: throttling and an
// unavailable API server.
func isTransient(err error) bool {
	return apierrors.IsTooManyRequests(err) || apierrors.IsServiceUnavailable(err)
}

// An apply retried on transient errors only.
func okTypedApplyRetriedOnTransient(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.OnError(retry.DefaultBackoff, isTransient, func() error {
		ac := corev1ac.ServiceAccount(name, ns).WithLabels(map[string]string{"app.kubernetes.io/managed-by": fieldManager})
		_, err := cs.CoreV1().ServiceAccounts(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager})
		return err
	})
}

// The classic Get/modify/Update inside RetryOnConflict: not Server-Side
// Apply.
func okUpdateInRetryOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
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

// A raw apply patch with force inside RetryOnConflict.
func okApplyPatchTypeForcedInRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	manifest := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":%q},"data":{"mode":"standby"}}`, name, ns)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.ApplyPatchType, []byte(manifest), metav1.PatchOptions{FieldManager: fieldManager, Force: ptr.To(true)})
		return err
	})
}

// Stamping a label on every namespace: a conflict on one namespace moves on
// to the next one, it does not retry the apply.
func okApplyEachNamespaceSkipConflicts(ctx context.Context, cs kubernetes.Interface, namespaces []string) error {
	for _, nsName := range namespaces {
		ac := corev1ac.Namespace(nsName).WithLabels(map[string]string{"widgets.example.com/enabled": "true"})
		if _, err := cs.CoreV1().Namespaces().Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager}); err != nil {
			if apierrors.IsConflict(err) {
				continue
			}
			return err
		}
	}
	return nil
}

// Bootstrapping into a namespace another component creates: the poll retries
// the apply while the namespace is missing, not on conflicts.
func okApplyPollUntilKindServed(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	ac := corev1ac.ConfigMap(name, ns).WithData(map[string]string{"bootstrap": "done"})
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := cs.CoreV1().ConfigMaps(ns).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badApplyPatchTypeInOnErrorConflict, badExtractModifyApplyInRetry, badTypedApplyInExponentialBackoff, badTypedApplyInHandWrittenLoop, badTypedApplyInLocalWrapper, badTypedApplyInRetryOnConflict, badTypedApplyInSharedWrapper, badTypedApplyStatusInRetry}

// The functions above are run by the program's workers.
var _ = []any{okApplyEachNamespaceSkipConflicts, okApplyPatchTypeForcedInRetry, okApplyPollUntilKindServed, okTypedApplyNoRetry, okTypedApplyRetriedOnTimeout, okTypedApplyRetriedOnTransient, okTypedForcedApplyInRetry, okUpdateInRetryOnConflict}
