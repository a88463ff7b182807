package testopretry

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"lostupdate.test/testopretry/retryutil"
)

const finalizer = "widgets.example.com/cleanup"

// jsonPatchOp is one operation of an RFC 6902 JSON patch.
type jsonPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// A leader annotation guarded by a test of the resourceVersion read, inside
// RetryOnConflict: a concurrent change fails the test with 422, which
// RetryOnConflict does not retry.
func badTestResourceVersionInRetryOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name, holder string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"add","path":"/metadata/annotations/example.com~1leader","value":%q}]`, cm.ResourceVersion, holder)
		_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// Removing a finalizer by index with a test that the entry is still there:
// when the list shifted, the 422 ends the retry at once.
func badTestFinalizerIndexInRetryOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pvc, err := cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		i := slices.Index(pvc.Finalizers, finalizer)
		if i < 0 {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/finalizers/%d","value":%q},{"op":"remove","path":"/metadata/finalizers/%d"}]`, i, finalizer, i)
		_, err = cs.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// retry.OnError whose predicate is apierrors.IsConflict, around a guarded
// replicas bump.
func badTestOpInOnErrorConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		replicas := *deploy.Spec.Replicas
		ops := []map[string]interface{}{
			{"op": "test", "path": "/spec/replicas", "value": replicas},
			{"op": "replace", "path": "/spec/replicas", "value": replicas + 1},
		}
		data, err := json.Marshal(ops)
		if err != nil {
			return err
		}
		_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// A hand-written loop that retries the guarded patch on conflicts only.
func badTestOpInConflictLoop(ctx context.Context, cs kubernetes.Interface, nodeName string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var node *corev1.Node
		node, err = cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		i := slices.IndexFunc(node.Spec.Taints, func(t corev1.Taint) bool { return t.Key == "example.com/maintenance" })
		if i < 0 {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/spec/taints/%d/key","value":"example.com/maintenance"},{"op":"remove","path":"/spec/taints/%d"}]`, i, i)
		_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^test-op-retry: "
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// Operations as structs, inside the operator's shared conflict wrapper from
// another package.
func badTestOpStructsInSharedWrapper(ctx context.Context, cs kubernetes.Interface, ns, name, image string) error {
	return retryutil.OnConflict(func() error {
		deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		data, err := json.Marshal([]jsonPatchOp{
			{Op: "test", Path: "/metadata/resourceVersion", Value: deploy.ResourceVersion},
			{Op: "replace", Path: "/spec/template/spec/containers/0/image", Value: image},
		})
		if err != nil {
			return err
		}
		_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// A guarded status patch (status subresource) of a Pod condition found by
// index, inside RetryOnConflict.
func badTestOpStatusSubresourceInRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		i := slices.IndexFunc(pod.Status.Conditions, func(c corev1.PodCondition) bool { return c.Type == "example.com/Registered" })
		if i < 0 {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/status/conditions/%d/type","value":"example.com/Registered"},{"op":"replace","path":"/status/conditions/%d/status","value":"True"}]`, i, i)
		_, err = cs.CoreV1().Pods(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}, "status") // want "^test-op-retry: "
		return err
	})
}

// borderline: wait.ExponentialBackoff is not a client-go retry helper, but
// its condition retries only conflicts, so a failed test ends it the same way.
// wait.ExponentialBackoff whose condition retries only conflicts.
func badTestOpInExponentialBackoff(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return wait.ExponentialBackoff(retry.DefaultBackoff, func() (bool, error) {
		svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"add","path":"/spec/externalIPs/-","value":"192.0.2.10"}]`, svc.ResourceVersion)
		_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^test-op-retry: "
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// retry.OnError with a predicate written inline that still accepts only
// conflicts.
func badTestOpInOnErrorInlineConflictPredicate(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.OnError(retry.DefaultRetry, func(err error) bool {
		return apierrors.IsConflict(err)
	}, func() error {
		secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"replace","path":"/data/token","value":"cm90YXRlZA=="}]`, secret.ResourceVersion)
		_, err = cs.CoreV1().Secrets(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// patchWithConflictRetry is this package's own wrapper of retry.OnError on
// conflicts.
func patchWithConflictRetry(fn func() error) error {
	return retry.OnError(retry.DefaultRetry, apierrors.IsConflict, fn)
}

func badTestOpInLocalWrapper(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return patchWithConflictRetry(func() error {
		sa, err := cs.CoreV1().ServiceAccounts(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"add","path":"/imagePullSecrets/-","value":{"name":"registry"}}]`, sa.ResourceVersion)
		_, err = cs.CoreV1().ServiceAccounts(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^test-op-retry: "
		return err
	})
}

// isConflictOrInvalid retries both ways a guarded patch can lose a race: a
// conflict and a failed test op (422).
func isConflictOrInvalid(err error) bool {
	return apierrors.IsConflict(err) || apierrors.IsInvalid(err)
}

// The fixed leader annotation: retried on conflicts and on failed tests,
// re-reading every time.
func okTestOpRetriedOnConflictOrInvalid(ctx context.Context, cs kubernetes.Interface, ns, name, holder string) error {
	return retry.OnError(retry.DefaultRetry, isConflictOrInvalid, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"add","path":"/metadata/annotations/example.com~1leader","value":%q}]`, cm.ResourceVersion, holder)
		_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
}

// The same with the predicate written inline.
func okTestOpRetriedInlineConflictOrInvalid(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.OnError(retry.DefaultBackoff, func(err error) bool {
		return apierrors.IsInvalid(err) || apierrors.IsConflict(err)
	}, func() error {
		pvc, err := cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		i := slices.Index(pvc.Finalizers, finalizer)
		if i < 0 {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/finalizers/%d","value":%q},{"op":"remove","path":"/metadata/finalizers/%d"}]`, i, finalizer, i)
		_, err = cs.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
}

// A guarded patch sent once; the 422 goes back to the caller (a work queue
// retries it later with a fresh read).
func okTestOpNotRetried(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"replace","path":"/spec/paused","value":true}]`, deploy.ResourceVersion)
	_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// A JSON patch with no test op (append a finalizer) inside RetryOnConflict.
func okJSONPatchWithoutTestInRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	patch := fmt.Sprintf(`[{"op":"add","path":"/metadata/finalizers/-","value":%q}]`, finalizer)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
}

// A merge patch that carries the resourceVersion read: its precondition fails
// with 409, so RetryOnConflict is the right retry.
func okMergePatchWithResourceVersionInRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		ips := append(slices.Clone(svc.Spec.ExternalIPs), "192.0.2.10")
		data, err := json.Marshal(map[string]interface{}{
			"metadata": map[string]interface{}{"resourceVersion": svc.ResourceVersion},
			"spec":     map[string]interface{}{"externalIPs": ips},
		})
		if err != nil {
			return err
		}
		_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{})
		return err
	})
}

// A JSON patch that replaces metadata.resourceVersion with the version read
// instead of testing it: a stale version fails with 409, which
// RetryOnConflict retries.
func okReplaceResourceVersionInRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pvc, err := cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		i := slices.Index(pvc.Finalizers, finalizer)
		if i < 0 {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"replace","path":"/metadata/resourceVersion","value":%q},{"op":"remove","path":"/metadata/finalizers/%d"}]`, pvc.ResourceVersion, i)
		_, err = cs.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
}

// A hand-written loop that retries a guarded patch on conflicts and on
// failed tests, with a pause in between.
func okTestOpLoopRetriesInvalid(ctx context.Context, cs kubernetes.Interface, nodeName string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var node *corev1.Node
		node, err = cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		i := slices.IndexFunc(node.Spec.Taints, func(t corev1.Taint) bool { return t.Key == "example.com/maintenance" })
		if i < 0 {
			return nil
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/spec/taints/%d/key","value":"example.com/maintenance"},{"op":"remove","path":"/spec/taints/%d"}]`, i, i)
		_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		if !apierrors.IsConflict(err) && !apierrors.IsInvalid(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	return err
}

// A guarded patch retried on any error: the predicate accepts the 422 too.
func okTestOpRetriedOnAnyError(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.OnError(retry.DefaultBackoff, func(error) bool { return true }, func() error {
		sts, err := cs.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"replace","path":"/spec/updateStrategy/type","value":"OnDelete"}]`, sts.ResourceVersion)
		_, err = cs.AppsV1().StatefulSets(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
}

// A strategic merge patch inside RetryOnConflict: not a JSON patch.
func okStrategicMergePatchInRetry(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	patch := []byte(`{"spec":{"template":{"spec":{"tolerations":[{"key":"dedicated","operator":"Exists"}]}}}}`)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.AppsV1().Deployments(ns).Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
		return err
	})
}

// borderline: the retried function turns the 422 of a failed test into a
// Conflict, so RetryOnConflict does retry it; seeing that takes following the
// error value.
// A guarded patch inside RetryOnConflict that maps a failed test to a
// conflict, so that the retry re-reads and tries again.
func okTestOpFailureMappedToConflict(ctx context.Context, cs kubernetes.Interface, ns, name, holder string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"add","path":"/metadata/annotations/example.com~1leader","value":%q}]`, cm.ResourceVersion, holder)
		_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		if apierrors.IsInvalid(err) {
			return apierrors.NewConflict(corev1.Resource("configmaps"), name, err)
		}
		return err
	})
}

// The functions above are run by the controller's workers.
var _ = []any{badTestFinalizerIndexInRetryOnConflict, badTestOpInConflictLoop, badTestOpInExponentialBackoff, badTestOpInLocalWrapper, badTestOpInOnErrorConflict, badTestOpInOnErrorInlineConflictPredicate, badTestOpStatusSubresourceInRetry, badTestOpStructsInSharedWrapper, badTestResourceVersionInRetryOnConflict}

// The functions above are run by the program's workers.
var _ = []any{okJSONPatchWithoutTestInRetry, okMergePatchWithResourceVersionInRetry, okReplaceResourceVersionInRetry, okStrategicMergePatchInRetry, okTestOpFailureMappedToConflict, okTestOpLoopRetriesInvalid, okTestOpNotRetried, okTestOpRetriedInlineConflictOrInvalid, okTestOpRetriedOnAnyError, okTestOpRetriedOnConflictOrInvalid}
