// Package patchbodies holds patch bodies built from data: JSON patches whose
// operations are appended in loops over a list read from the object, built
// by a helper of another package, or whole lists filtered from the read one;
// merge patches computed from marshalled objects. Each hazard is next to its
// safe twin.
package patchbodies

import (
	"context"
	"encoding/json"
	"fmt"

	gomodulesjsonpatch "gomodules.xyz/jsonpatch/v2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/patchbodies/patchbuild"
)

const (
	cleanupFinalizer = "widgets.example.com/cleanup"
	pvcProtection    = "kubernetes.io/pvc-protection"
)

// jsonOp is one operation of an RFC 6902 JSON patch.
type jsonOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// FinalizerReleaseReconciler drops its finalizer from a ConfigMap with a JSON
// patch of remove operations, one per position the finalizer has in the list
// it read: if the list changed meanwhile, another controller's finalizer
// goes.
type FinalizerReleaseReconciler struct {
	client.Client
}

func (r *FinalizerReleaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var ops []map[string]any
	for i, f := range cm.Finalizers {
		if f == cleanupFinalizer {
			ops = append(ops, map[string]any{"op": "remove", "path": fmt.Sprintf("/metadata/finalizers/%d", i)})
		}
	}
	if len(ops) == 0 {
		return ctrl.Result{}, nil
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Patch(ctx, cm, client.RawPatch(types.JSONPatchType, data)) // want `^unconditional-patch: Patch of cm sends a JSON patch without a precondition, and its remove op addresses the list element /metadata/finalizers/<index> by index`
}

// TestedFinalizerReleaseReconciler puts a test of the resourceVersion it read
// before the removals: if the ConfigMap changed, the patch fails instead of
// removing the wrong entry.
type TestedFinalizerReleaseReconciler struct {
	client.Client
}

func (r *TestedFinalizerReleaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ops := []map[string]any{{"op": "test", "path": "/metadata/resourceVersion", "value": cm.ResourceVersion}}
	for i, f := range cm.Finalizers {
		if f == cleanupFinalizer {
			ops = append(ops, map[string]any{"op": "remove", "path": fmt.Sprintf("/metadata/finalizers/%d", i)})
		}
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Patch(ctx, cm, client.RawPatch(types.JSONPatchType, data))
}

// A typed client removes finalizers by index with operations built as
// []map[string]interface{}.
func badRemoveFinalizersByIndexTyped(ctx context.Context, cs kubernetes.Interface, ns, name string, drop map[string]bool) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	ops := []map[string]interface{}{}
	for i, f := range secret.Finalizers {
		if drop[f] {
			ops = append(ops, map[string]interface{}{"op": "remove", "path": fmt.Sprintf("/metadata/finalizers/%d", i)})
		}
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Secrets(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a JSON patch without a precondition, and its remove op addresses the list element /metadata/finalizers/<index> by index`
	return err
}

// The same loop adds each missing finalizer at the end of the list ("/-"):
// the server appends to the list it has, whatever it holds.
func okAppendMissingFinalizersTyped(ctx context.Context, cs kubernetes.Interface, ns, name string, want []string) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, f := range secret.Finalizers {
		have[f] = true
	}
	ops := []map[string]interface{}{}
	for _, f := range want {
		if !have[f] {
			ops = append(ops, map[string]interface{}{"op": "add", "path": "/metadata/finalizers/-", "value": f})
		}
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Secrets(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// A CA injector replaces the caBundle of every webhook by its position in
// the configuration it read: a webhook inserted meanwhile gets another
// webhook's bundle, and the last one none.
func badInjectCABundleByIndex(ctx context.Context, cs kubernetes.Interface, name string, ca []byte) error {
	cfg, err := cs.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	var ops []jsonOp
	for i := range cfg.Webhooks {
		ops = append(ops, jsonOp{Op: "replace", Path: fmt.Sprintf("/webhooks/%d/clientConfig/caBundle", i), Value: ca})
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = cs.AdmissionregistrationV1().MutatingWebhookConfigurations().Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a JSON patch without a precondition, and its replace op addresses the list element /webhooks/<index>/clientConfig/caBundle by index`
	return err
}

// The injector that tests the resourceVersion it read first.
func okInjectCABundleByIndexWithTest(ctx context.Context, cs kubernetes.Interface, name string, ca []byte) error {
	cfg, err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	ops := []jsonOp{{Op: "test", Path: "/metadata/resourceVersion", Value: cfg.ResourceVersion}}
	for i := range cfg.Webhooks {
		ops = append(ops, jsonOp{Op: "replace", Path: fmt.Sprintf("/webhooks/%d/clientConfig/caBundle", i), Value: ca})
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// A workspace cleanup drops pvc-protection from the finalizers it read and
// replaces the whole list with the rest: a finalizer added after the read is
// lost.
func badReplaceFilteredFinalizers(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pvc, err := cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	var finalizers []string
	for _, f := range pvc.ObjectMeta.Finalizers {
		if f == pvcProtection {
			continue
		}
		finalizers = append(finalizers, f)
	}
	data, err := json.Marshal([]gomodulesjsonpatch.JsonPatchOperation{{
		Path:      "/metadata/finalizers",
		Operation: "replace",
		Value:     finalizers,
	}})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a JSON patch without a precondition, and its replace op sets /metadata/finalizers to a value computed from the object read earlier`
	return err
}

// The same replacement behind a test of the resourceVersion read.
func okReplaceFilteredFinalizersWithTest(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pvc, err := cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	var finalizers []string
	for _, f := range pvc.ObjectMeta.Finalizers {
		if f == pvcProtection {
			continue
		}
		finalizers = append(finalizers, f)
	}
	data, err := json.Marshal([]gomodulesjsonpatch.JsonPatchOperation{
		{Path: "/metadata/resourceVersion", Operation: "test", Value: pvc.ResourceVersion},
		{Path: "/metadata/finalizers", Operation: "replace", Value: finalizers},
	})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// The patch bytes are built by a helper of another package from the Secret
// read here: its summary says that they remove finalizers by index.
func badRemoveFinalizerPatchFromBuilder(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	data, err := patchbuild.RemoveFinalizerPatch(secret, cleanupFinalizer)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Secrets(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a JSON patch built by RemoveFinalizerPatch without a precondition, and its body has an op that addresses the list element /metadata/finalizers/<index> by index`
	return err
}

// The builder that tests the resourceVersion first.
func okRemoveFinalizerPatchTestedFromBuilder(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	data, err := patchbuild.RemoveFinalizerPatchTested(secret, cleanupFinalizer)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Secrets(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// The builder replaces the finalizers with a list filtered from the ones of
// the object it is given, here the Secret read.
func badKeepFinalizersPatchFromBuilder(ctx context.Context, c client.Client, key client.ObjectKey) error {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return err
	}
	data, err := patchbuild.KeepFinalizersPatch(&secret, cleanupFinalizer)
	if err != nil {
		return err
	}
	return c.Patch(ctx, &secret, client.RawPatch(types.JSONPatchType, data)) // want `^unconditional-patch: Patch of secret sends a JSON patch built by KeepFinalizersPatch without a precondition, and its body carries values computed from the object read earlier`
}

// The builder of a constant append.
func okAddFinalizerPatchFromBuilder(ctx context.Context, c client.Client, key client.ObjectKey) error {
	var secret corev1.Secret
	if err := c.Get(ctx, key, &secret); err != nil {
		return err
	}
	data, err := patchbuild.AddFinalizerPatch(cleanupFinalizer)
	if err != nil {
		return err
	}
	return c.Patch(ctx, &secret, client.RawPatch(types.JSONPatchType, data))
}

// The tested removals built in a loop, retried only on conflict: a failed
// test is a 422, so the retry never runs.
func badTestedRemovalsRetriedOnConflict(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		ops := []jsonOp{{Op: "test", Path: "/metadata/resourceVersion", Value: cm.ResourceVersion}}
		for i, f := range cm.Finalizers {
			if f == cleanupFinalizer {
				ops = append(ops, jsonOp{Op: "remove", Path: fmt.Sprintf("/metadata/finalizers/%d", i)})
			}
		}
		data, err := json.Marshal(ops)
		if err != nil {
			return err
		}
		_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want `^test-op-retry: Patch sends a JSON patch guarded by a test op inside retry.RetryOnConflict`
		return err
	})
}

// The same, retried on the 422 of a failed test as well.
func okTestedRemovalsRetriedOnInvalid(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	retriable := func(err error) bool { return apierrors.IsConflict(err) || apierrors.IsInvalid(err) }
	return retry.OnError(retry.DefaultRetry, retriable, func() error {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		ops := []jsonOp{{Op: "test", Path: "/metadata/resourceVersion", Value: cm.ResourceVersion}}
		for i, f := range cm.Finalizers {
			if f == cleanupFinalizer {
				ops = append(ops, jsonOp{Op: "remove", Path: fmt.Sprintf("/metadata/finalizers/%d", i)})
			}
		}
		data, err := json.Marshal(ops)
		if err != nil {
			return err
		}
		_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
		return err
	})
}

// A release takes over the fields of disallowed managers: the operations,
// built by a helper of another package from the object read here, replace
// the whole managedFields list with the one read, edited, so an entry
// another manager wrote meanwhile is lost.
func badReplaceFieldManagers(ctx context.Context, c client.Client, owner string, disallowed []string, obj *unstructured.Unstructured) error {
	existing := &unstructured.Unstructured{}
	existing.SetGroupVersionKind(obj.GroupVersionKind())
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), existing); err != nil {
		return client.IgnoreNotFound(err)
	}
	patches, err := patchbuild.ReplaceFieldManagers(existing, disallowed, owner)
	if err != nil || len(patches) == 0 {
		return err
	}
	data, err := json.Marshal(patches)
	if err != nil {
		return err
	}
	return c.Patch(ctx, existing, client.RawPatch(types.JSONPatchType, data), client.FieldOwner(owner)) // want `^unconditional-patch: Patch of existing sends a JSON patch built by ReplaceFieldManagers without a precondition, and its body carries values computed from the object read earlier`
}

// The same with operations that test the resourceVersion read first.
func okReplaceFieldManagersTested(ctx context.Context, c client.Client, owner string, disallowed []string, obj *unstructured.Unstructured) error {
	existing := &unstructured.Unstructured{}
	existing.SetGroupVersionKind(obj.GroupVersionKind())
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), existing); err != nil {
		return client.IgnoreNotFound(err)
	}
	data, err := json.Marshal(patchbuild.ReplaceFieldManagersTested(existing, disallowed, owner))
	if err != nil {
		return err
	}
	return c.Patch(ctx, existing, client.RawPatch(types.JSONPatchType, data), client.FieldOwner(owner))
}

// A Pod's sidecars are stopped by replacing their images, addressed by their
// positions in the Pod read: the API server keeps a Pod's containers in
// place (only their images may change), so the index stays that of the same
// container, and the no-op image is the controller's own decision.
func okStopSidecarsByIndex(ctx context.Context, cs kubernetes.Interface, ns, name, nopImage string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	data, err := patchbuild.StopSidecarsPatch(pod, "step", nopImage)
	if err != nil || data == nil {
		return err
	}
	_, err = cs.CoreV1().Pods(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// The same by index into a Deployment's pod template, whose containers any
// writer may insert or reorder: the index read may name another container by
// the time the patch lands.
func badTemplateImageByIndex(ctx context.Context, cs kubernetes.Interface, ns, name, image string) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	data, err := patchbuild.TemplateImagePatch(deploy, "app", image)
	if err != nil {
		return err
	}
	_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a JSON patch built by TemplateImagePatch without a precondition, and its body has an op that addresses the list element /spec/template/spec/containers/<index>/image by index`
	return err
}

// A status list chosen by name, and the entry in it by the index read, as
// grafana-operator's status lists of the resources it serves are.
type StatusListReconciler struct {
	client.Client
}

func (r *StatusListReconciler) dropCondition(ctx context.Context, pod *corev1.Pod, list string, idx int) error {
	data, err := json.Marshal([]map[string]any{{"op": "remove", "path": fmt.Sprintf("/status/%s/%d", list, idx)}})
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, pod, client.RawPatch(types.JSONPatchType, data)) // want `^unconditional-patch: Status\(\).Patch of pod sends a JSON patch without a precondition, and its remove op addresses the list element /status/<field>/<index> by index`
}

// The functions above are run by the controller's workers.
var _ = []any{(*StatusListReconciler).dropCondition, badInjectCABundleByIndex, badKeepFinalizersPatchFromBuilder, badRemoveFinalizerPatchFromBuilder, badRemoveFinalizersByIndexTyped, badReplaceFieldManagers, badReplaceFilteredFinalizers, badTemplateImageByIndex, badTestedRemovalsRetriedOnConflict}

// The functions above are run by the program's workers.
var _ = []any{okAddFinalizerPatchFromBuilder, okAppendMissingFinalizersTyped, okInjectCABundleByIndexWithTest, okRemoveFinalizerPatchTestedFromBuilder, okReplaceFieldManagersTested, okReplaceFilteredFinalizersWithTest, okStopSidecarsByIndex, okTestedRemovalsRetriedOnInvalid}
