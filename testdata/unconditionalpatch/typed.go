package unconditionalpatch

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"

	"lostupdate.test/unconditionalpatch/patchutil"
)

// jsonPatchOp is one operation of an RFC 6902 JSON patch.
type jsonPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

const lbCleanupFinalizer = "service.example.com/load-balancer-cleanup"

// An image updater checks that the first container is the app and replaces
// its image by index: if a sidecar was inserted first meanwhile, the patch
// rewrites the sidecar.
func badImageByContainerIndex(ctx context.Context, cs kubernetes.Interface, ns, name, image string) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if len(deploy.Spec.Template.Spec.Containers) == 0 || deploy.Spec.Template.Spec.Containers[0].Name != "app" {
		return nil
	}
	patch := fmt.Sprintf(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":%q}]`, image)
	_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// A cleanup path removes its finalizer by the position it had in the list it
// read: if the list changed meanwhile, another controller's finalizer goes.
func badRemoveFinalizerByIndex(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pvc, err := cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	i := slices.Index(pvc.Finalizers, widgetFinalizer)
	if i < 0 {
		return nil
	}
	patch := fmt.Sprintf(`[{"op":"remove","path":"/metadata/finalizers/%d"}]`, i)
	_, err = cs.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// A scaler replaces spec.replicas with the count it read plus one: two
// concurrent scale-ups both write the same number.
func badReplaceReplicasComputedFromRead(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	sts, err := cs.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	replicas := int32(1)
	if sts.Spec.Replicas != nil {
		replicas = *sts.Spec.Replicas + 1
	}
	ops := []map[string]interface{}{
		{"op": "replace", "path": "/spec/replicas", "value": replicas},
	}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = cs.AppsV1().StatefulSets(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// A Service controller filters its finalizer out of the list it read and
// sends the rest as a JSON merge patch: a finalizer added meanwhile is lost.
func badMergePatchFilteredFinalizers(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	remaining := make([]string, 0, len(svc.Finalizers))
	for _, f := range svc.Finalizers {
		if f != lbCleanupFinalizer {
			remaining = append(remaining, f)
		}
	}
	data, err := json.Marshal(map[string]interface{}{
		"metadata": map[string]interface{}{"finalizers": remaining},
	})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// A restart counter kept in an annotation: the new value is computed from
// the value read, so concurrent increments collapse into one.
func badAnnotationCounterFromRead(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	restarts, _ := strconv.Atoi(cm.Annotations["widgets.example.com/restarts"])
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"widgets.example.com/restarts":"%d"}}}`, restarts+1)
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// A node maintenance tool adds a taint and sends a two-way strategic merge
// patch of the Node it read: spec.taints has no merge strategy, so the patch
// replaces the list and drops a taint added meanwhile.
func badTwoWayStrategicTaints(ctx context.Context, cs kubernetes.Interface, nodeName string, taint corev1.Taint) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	oldData, err := json.Marshal(node)
	if err != nil {
		return err
	}
	updated := node.DeepCopy()
	updated.Spec.Taints = append(updated.Spec.Taints, taint)
	newData, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, corev1.Node{})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.StrategicMergePatchType, patch, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// An ingress gateway adds an external IP and computes a JSON merge patch
// between the Service it read and its edited copy: the patch carries the
// whole externalIPs list.
func badCreateMergePatchExternalIPs(ctx context.Context, cs kubernetes.Interface, ns, name, ip string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	original, err := json.Marshal(svc)
	if err != nil {
		return err
	}
	desired := svc.DeepCopy()
	desired.Spec.ExternalIPs = append(desired.Spec.ExternalIPs, ip)
	modified, err := json.Marshal(desired)
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(original, modified)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// Releasing a Secret from a deleted owner: the JSON patch replaces
// ownerReferences with the list read minus one entry.
func badReplaceOwnerReferencesFromRead(ctx context.Context, cs kubernetes.Interface, ns, name string, ownerUID types.UID) error {
	secret, err := cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	refs := slices.DeleteFunc(slices.Clone(secret.OwnerReferences), func(ref metav1.OwnerReference) bool {
		return ref.UID == ownerUID
	})
	data, err := json.Marshal([]jsonPatchOp{{Op: "replace", Path: "/metadata/ownerReferences", Value: refs}})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Secrets(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// borderline: the index-addressed body is built in another package, so seeing
// it takes a summary of what the helper returns for the object it is given.
// The JSON patch is built by a helper of another package from the ConfigMap
// read here; it removes the finalizer by index.
func badRemoveFinalizerOpFromHelper(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	patch, ok := patchutil.RemoveFinalizerOp(cm, widgetFinalizer)
	if !ok {
		return nil
	}
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// After reading a Pod to decide, the labeler sets one constant label with a
// merge patch: a blind write of a map key, not a read-modify-write.
func okConstantLabelAfterRead(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if pod.Labels["widgets.example.com/scanned"] == "true" {
		return nil
	}
	patch := []byte(`{"metadata":{"labels":{"widgets.example.com/scanned":"true"}}}`)
	_, err = cs.CoreV1().Pods(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// Suspending a CronJob with a constant merge patch.
func okSuspendCronJob(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	_, err := cs.BatchV1().CronJobs(ns).Patch(ctx, name, types.MergePatchType, []byte(`{"spec":{"suspend":true}}`), metav1.PatchOptions{})
	return err
}

// Adding a finalizer with a JSON patch append ("/-"): the server adds it to
// the current list, whatever it holds.
func okAppendFinalizerJSONPatch(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if slices.Contains(cm.Finalizers, widgetFinalizer) {
		return nil
	}
	patch := fmt.Sprintf(`[{"op":"add","path":"/metadata/finalizers/-","value":%q}]`, widgetFinalizer)
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// Removing one label key with a JSON patch "remove" by key.
func okRemoveLabelJSONPatch(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	patch := []byte(`[{"op":"remove","path":"/metadata/labels/widgets.example.com~1quarantine"}]`)
	_, err := cs.CoreV1().Pods(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
	return err
}

// The index-based finalizer removal guarded by a test of the resourceVersion
// read: if the object changed, the patch fails instead of removing the wrong
// entry.
func okRemoveFinalizerByIndexWithTest(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pvc, err := cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	i := slices.Index(pvc.Finalizers, widgetFinalizer)
	if i < 0 {
		return nil
	}
	patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"remove","path":"/metadata/finalizers/%d"}]`, pvc.ResourceVersion, i)
	_, err = cs.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// The filtered finalizer list sent as a merge patch that carries the
// resourceVersion read: the server rejects it with 409 if the Service changed.
func okMergePatchFinalizersWithResourceVersion(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	remaining := slices.DeleteFunc(slices.Clone(svc.Finalizers), func(f string) bool { return f == lbCleanupFinalizer })
	data, err := json.Marshal(map[string]interface{}{
		"metadata": map[string]interface{}{
			"finalizers":      remaining,
			"resourceVersion": svc.ResourceVersion,
		},
	})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{})
	return err
}

// The image-by-index JSON patch that also replaces metadata.resourceVersion
// with the version read: the write is conditional on it.
func okImageByIndexWithResourceVersionReplace(ctx context.Context, cs kubernetes.Interface, ns, name, image string) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	idx := slices.IndexFunc(deploy.Spec.Template.Spec.Containers, func(c corev1.Container) bool { return c.Name == "app" })
	if idx < 0 {
		return nil
	}
	data, err := json.Marshal([]jsonPatchOp{
		{Op: "replace", Path: "/metadata/resourceVersion", Value: deploy.ResourceVersion},
		{Op: "replace", Path: fmt.Sprintf("/spec/template/spec/containers/%d/image", idx), Value: image},
	})
	if err != nil {
		return err
	}
	_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// The node-lifecycle way of patching taints: the old side of the two-way
// patch has its resourceVersion cleared, so the patch carries the version
// read as a precondition.
func okTwoWayTaintsWithResourceVersion(ctx context.Context, cs kubernetes.Interface, nodeName string, taint corev1.Taint) error {
	oldNode, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	oldNodeNoRV := oldNode.DeepCopy()
	oldNodeNoRV.ResourceVersion = ""
	oldData, err := json.Marshal(oldNodeNoRV)
	if err != nil {
		return err
	}
	newNode := oldNode.DeepCopy()
	newNode.Spec.Taints = append(newNode.Spec.Taints, taint)
	newData, err := json.Marshal(newNode)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, corev1.Node{})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Nodes().Patch(ctx, nodeName, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err
}

// The load-balancer cleanup as the service controller does it: a two-way
// strategic merge patch; metadata.finalizers has merge strategy, so the patch
// deletes one entry and keeps the others.
func okTwoWayStrategicRemoveFinalizer(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	oldData, err := json.Marshal(svc)
	if err != nil {
		return err
	}
	updated := svc.DeepCopy()
	updated.Finalizers = slices.DeleteFunc(updated.Finalizers, func(f string) bool { return f == lbCleanupFinalizer })
	newData, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, corev1.Service{})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	return err
}

// "kubectl rollout restart": a strategic merge patch of one pod template
// annotation set to the current time.
func okRolloutRestart(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	patch := fmt.Sprintf(`{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":%q}}}}}`, time.Now().Format(time.RFC3339))
	_, err := cs.AppsV1().Deployments(ns).Patch(ctx, name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{FieldManager: "kubectl-rollout"})
	return err
}

// A JSON merge patch computed between a Deployment read and its copy where
// only a pod template annotation changed: the patch carries one map key.
func okTwoWayTemplateAnnotation(ctx context.Context, cs kubernetes.Interface, ns, name, checksum string) error {
	deploy, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	oldData, err := json.Marshal(deploy)
	if err != nil {
		return err
	}
	updated := deploy.DeepCopy()
	if updated.Spec.Template.Annotations == nil {
		updated.Spec.Template.Annotations = map[string]string{}
	}
	updated.Spec.Template.Annotations["widgets.example.com/config-checksum"] = checksum
	newData, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(oldData, newData)
	if err != nil {
		return err
	}
	_, err = cs.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// A generic helper that sends the patch its caller built: nothing is known
// about the body here.
func patchDeployment(ctx context.Context, cs kubernetes.Interface, ns, name string, pt types.PatchType, patch []byte) error {
	_, err := cs.AppsV1().Deployments(ns).Patch(ctx, name, pt, patch, metav1.PatchOptions{})
	return err
}

// The caller of that helper passes a constant label patch from the shared
// package.
func okLabelPatchThroughHelpers(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	if err := patchDeployment(ctx, cs, ns, name, types.MergePatchType, patchutil.LabelPatch("widgets.example.com/tier", "gold")); err != nil {
		return err
	}
	return patchutil.PatchConfigMap(ctx, cs, ns, name+"-config", patchutil.LabelPatch("widgets.example.com/tier", "gold"))
}

// Server-Side Apply through Patch with ApplyPatchType.
func okApplyPatchType(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	manifest := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":%q},"data":{"mode":"active"}}`, name, ns)
	force := true
	_, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.ApplyPatchType, []byte(manifest), metav1.PatchOptions{FieldManager: fieldManager, Force: &force})
	return err
}

// projectFinalizer removes the cleanup finalizer from cm.
func projectFinalizer(cm *corev1.ConfigMap) {
	cm.Finalizers = slices.DeleteFunc(cm.Finalizers, func(f string) bool { return f == "example.com/cleanup" })
}

// patchProjectFinalizers sends the finalizers of cm as a merge patch; every
// caller passes an object it read, so the list sent is a read-modify-write.
func patchProjectFinalizers(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	projectFinalizer(cm)
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": cm.Finalizers}})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(cm.Namespace).Patch(ctx, cm.Name, types.MergePatchType, patch, metav1.PatchOptions{}) // want "^unconditional-patch: .*metadata.finalizers"
	return err
}

func finalizeProject(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return patchProjectFinalizers(ctx, cs, cm)
}

// patchDesiredFinalizers sends the finalizers of an object its only caller
// builds: a blind write of a list the program decides, not a
// read-modify-write.
func patchDesiredFinalizers(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"finalizers": cm.Finalizers}})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(cm.Namespace).Patch(ctx, cm.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

func resetFinalizers(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	desired := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Finalizers: []string{"example.com/cleanup"}}}
	return patchDesiredFinalizers(ctx, cs, desired)
}

// The functions above are run by the controller's workers.
var _ = []any{badAnnotationCounterFromRead, badCreateMergePatchExternalIPs, badImageByContainerIndex, badMergePatchFilteredFinalizers, badRemoveFinalizerByIndex, badRemoveFinalizerOpFromHelper, badReplaceOwnerReferencesFromRead, badReplaceReplicasComputedFromRead, badTwoWayStrategicTaints}

// The functions above are run by the program's workers.
var _ = []any{finalizeProject, okAppendFinalizerJSONPatch, okApplyPatchType, okConstantLabelAfterRead, okImageByIndexWithResourceVersionReplace, okLabelPatchThroughHelpers, okMergePatchFinalizersWithResourceVersion, okRemoveFinalizerByIndexWithTest, okRemoveLabelJSONPatch, okRolloutRestart, okSuspendCronJob, okTwoWayStrategicRemoveFinalizer, okTwoWayTaintsWithResourceVersion, okTwoWayTemplateAnnotation, resetFinalizers}
