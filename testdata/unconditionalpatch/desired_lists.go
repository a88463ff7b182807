package unconditionalpatch

import (
	"context"
	"maps"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// A whole list set to the controller's desired state (a copy of a
// template's list, a list kept from another object) is not a
// read-modify-write: a merge patch sends what the controller wants, and a
// lock would only make it retry to send the same list. A list computed
// from the one it replaces is.

// SyncTemplate copies the template's tolerations and image pull secrets
// onto a Deployment it read, and appends a toleration to the read list.
type SyncTemplate struct {
	client.Client
}

func (r *SyncTemplate) syncFromTemplate(ctx context.Context, key client.ObjectKey, tmpl *corev1.PodTemplate) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	deploy.Spec.Template.Spec.Tolerations = tmpl.Template.Spec.Tolerations
	deploy.Spec.Template.Spec.ImagePullSecrets = tmpl.Template.Spec.ImagePullSecrets
	return r.Patch(ctx, deploy, client.MergeFrom(base))
}

func (r *SyncTemplate) addToleration(ctx context.Context, key client.ObjectKey, t corev1.Toleration) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	deploy.Spec.Template.Spec.Tolerations = append(deploy.Spec.Template.Spec.Tolerations, t)
	return r.Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: Patch of deploy .*spec.template.spec.tolerations list"
}

// restoreOwners sets the owner references kept from the object before it
// was moved; extendOwners adds one to those it read.
func (r *SyncTemplate) restoreOwners(ctx context.Context, key client.ObjectKey, saved []metav1.OwnerReference) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.OwnerReferences = saved
	return r.Patch(ctx, cm, client.MergeFrom(base))
}

func (r *SyncTemplate) extendOwners(ctx context.Context, key client.ObjectKey, ref metav1.OwnerReference) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.OwnerReferences = append(cm.OwnerReferences, ref)
	return r.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*ownerReferences list"
}

// The same through the setter of the embedded ObjectMeta.
func (r *SyncTemplate) restoreOwnersBySetter(ctx context.Context, key client.ObjectKey, saved []metav1.OwnerReference) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.SetOwnerReferences(saved)
	return r.Patch(ctx, cm, client.MergeFrom(base))
}

func (r *SyncTemplate) extendOwnersBySetter(ctx context.Context, key client.ObjectKey, ref metav1.OwnerReference) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.SetOwnerReferences(append(cm.GetOwnerReferences(), ref))
	return r.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*ownerReferences list"
}

// pinFinalizer sets the finalizers to the one named after a field of the
// spec it read: computed from other fields, not from the list it
// replaces, so desired state (a retry would send the same list).
func (r *SyncTemplate) pinFinalizer(ctx context.Context, key client.ObjectKey) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	storage := deploy.Spec.Template.Spec.ServiceAccountName
	deploy.Finalizers = []string{"example.com/" + storage}
	return r.Patch(ctx, deploy, client.MergeFrom(base))
}

// keepFinalizersOf filters the list it replaces: a read-modify-write.
func (r *SyncTemplate) keepFinalizersOf(ctx context.Context, key client.ObjectKey, prefix string) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	var kept []string
	for _, f := range deploy.Finalizers {
		if strings.HasPrefix(f, prefix) {
			kept = append(kept, f+"-v2")
		}
	}
	deploy.Finalizers = kept
	return r.Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: Patch of deploy .*finalizers list"
}

// clearImagePullSecrets clears a list to a constant: desired state, as
// fleet clears a deprecated status field and cloudnative-pg's plugins
// clear managedFields before a patch.
func (r *SyncTemplate) clearImagePullSecrets(ctx context.Context, key client.ObjectKey) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	deploy.Spec.Template.Spec.ImagePullSecrets = nil
	deploy.ManagedFields = nil
	return r.Patch(ctx, deploy, client.MergeFrom(base))
}

// reportConditions rebuilds a status list from outside data: make, then
// fill each element. The list read is not used.
func (r *SyncTemplate) reportConditions(ctx context.Context, key client.ObjectKey, probes []string) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	deploy.Status.Conditions = make([]appsv1.DeploymentCondition, len(probes))
	for i, probe := range probes {
		deploy.Status.Conditions[i].Type = appsv1.DeploymentConditionType(probe)
		deploy.Status.Conditions[i].Status = corev1.ConditionTrue
	}
	return r.Status().Patch(ctx, deploy, client.MergeFrom(base))
}

// The control: an element of the list read is changed in place, with no
// set of the whole list before it.
func (r *SyncTemplate) markFirstCondition(ctx context.Context, key client.ObjectKey) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	if len(deploy.Status.Conditions) > 0 {
		deploy.Status.Conditions[0].Status = corev1.ConditionFalse
	}
	return r.Status().Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: .*conditions list"
}

// mergeLabels sets the labels map to a merge of the map read and more
// keys (lo.Assign in karpenter): a merge patch of a map sends only the
// keys that changed, each set blind, so no concurrent label is lost.
func (r *SyncTemplate) mergeLabels(ctx context.Context, key client.ObjectKey, more map[string]string) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	deploy.Labels = assign(deploy.Labels, more)
	return r.Patch(ctx, deploy, client.MergeFrom(base))
}

func assign(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// The control: one annotation counts the syncs, from the value read.
func (r *SyncTemplate) countSyncs(ctx context.Context, key client.ObjectKey) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	n, _ := strconv.Atoi(deploy.Annotations["example.com/syncs"])
	deploy.Annotations["example.com/syncs"] = strconv.Itoa(n + 1)
	return r.Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: .*annotations"
}

// resetOwners sets constant owner references: desired state.
func (r *SyncTemplate) resetOwners(ctx context.Context, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Namespace", Name: "default", UID: "uid-1"}}
	return r.Patch(ctx, cm, client.MergeFrom(base))
}

// The control: the list is made anew, then filled from the list read: a
// read-modify-write of the conditions.
func (r *SyncTemplate) rebuildConditionsFromRead(ctx context.Context, key client.ObjectKey) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	old := deploy.Status.Conditions
	deploy.Status.Conditions = make([]appsv1.DeploymentCondition, len(old))
	for i, c := range old {
		deploy.Status.Conditions[i] = c
		deploy.Status.Conditions[i].Status = corev1.ConditionUnknown
	}
	return r.Status().Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: .*conditions list"
}

// The control: the annotations are set whole to a copy in which a
// counter read from them is advanced.
func (r *SyncTemplate) countSyncsInCopy(ctx context.Context, key client.ObjectKey) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	ann := maps.Clone(deploy.Annotations)
	n, _ := strconv.Atoi(deploy.Annotations["example.com/syncs"])
	ann["example.com/syncs"] = strconv.Itoa(n + 1)
	deploy.Annotations = ann
	return r.Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: .*annotations"
}

// A copy of the annotations read, kept for a log line, is not what the
// patch sends: the annotations are set whole to a new map of constants.
func (r *SyncTemplate) resetAnnotationsLogged(ctx context.Context, key client.ObjectKey, logf func(string, ...any)) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	seen := make(map[string]string, len(deploy.Annotations))
	for k, v := range deploy.Annotations {
		seen[k] = v
	}
	logf("resetting annotations %v", seen)
	deploy.Annotations = map[string]string{"example.com/managed": "true"}
	return r.Patch(ctx, deploy, client.MergeFrom(base))
}

// stripPod clears what a cache of pods need not keep, in a helper: the
// maps set to nil are constants with no uses of their own to follow.
func stripPod(pod *corev1.Pod) *corev1.Pod {
	pod.ManagedFields = nil
	pod.Annotations = nil
	pod.Labels = nil
	return pod
}

// A pod stripped of its labels and annotations by a helper, patched: the
// merge patch clears both maps, desired state that a lock would only make
// retry to send again. Not reported.
func (r *SyncTemplate) stripAndPatch(ctx context.Context, key client.ObjectKey) error {
	var pod corev1.Pod
	if err := r.Get(ctx, key, &pod); err != nil {
		return err
	}
	base := pod.DeepCopy()
	stripPod(&pod)
	return r.Patch(ctx, &pod, client.MergeFrom(base))
}

// The annotations copied key by key into a new map, then some keys set to
// constants, as aws-load-balancer-controller's add-on annotations are: the
// copied keys are unchanged and a merge patch sends only the constants.
func (r *SyncTemplate) markAddOns(ctx context.Context, deploy *appsv1.Deployment, addOns []string) error {
	ann := make(map[string]string)
	for k, v := range deploy.Annotations {
		ann[k] = v
	}
	for _, a := range addOns {
		ann["addons.example.com/"+a] = "true"
	}
	base := deploy.DeepCopy()
	deploy.Annotations = ann
	return r.Patch(ctx, deploy, client.MergeFrom(base))
}

// The control: the copy moves each value under a new key, computed from
// the map read.
func (r *SyncTemplate) renameAnnotations(ctx context.Context, deploy *appsv1.Deployment) error {
	ann := make(map[string]string)
	for k, v := range deploy.Annotations {
		ann["v2."+k] = v
	}
	base := deploy.DeepCopy()
	deploy.Annotations = ann
	return r.Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: .*annotations"
}

// The methods above are run by the controller's workers.
var _ = []any{(*SyncTemplate).addToleration, (*SyncTemplate).countSyncs, (*SyncTemplate).countSyncsInCopy, (*SyncTemplate).extendOwners, (*SyncTemplate).extendOwnersBySetter, (*SyncTemplate).keepFinalizersOf, (*SyncTemplate).markFirstCondition, (*SyncTemplate).rebuildConditionsFromRead, (*SyncTemplate).renameAnnotations}

// reportPorts rebuilds the Widget's conditions from its spec, one per
// port: the list is made anew and appended to in a loop, so the merge
// patch sends desired state. keepConditions appends to the list it read
// (no make before the loop): a read-modify-write.
func (r *SyncTemplate) reportPorts(ctx context.Context, key client.ObjectKey) error {
	w := &widgetsv1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	patch := client.MergeFrom(w.DeepCopy())
	w.Status.Conditions = make([]metav1.Condition, 0, len(w.Spec.Ports))
	for _, port := range w.Spec.Ports {
		w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{
			Type:   "Port" + strconv.Itoa(int(port)),
			Status: metav1.ConditionTrue,
			Reason: "Exposed",
		})
	}
	return r.Status().Patch(ctx, w, patch)
}

func (r *SyncTemplate) keepConditions(ctx context.Context, key client.ObjectKey) error {
	w := &widgetsv1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	patch := client.MergeFrom(w.DeepCopy())
	for _, port := range w.Spec.Ports {
		w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{
			Type:   "Port" + strconv.Itoa(int(port)),
			Status: metav1.ConditionTrue,
			Reason: "Exposed",
		})
	}
	return r.Status().Patch(ctx, w, patch) // want "^unconditional-patch: Status\\(\\)\\.Patch of w .*status.conditions list"
}

// The functions above are run by the program's workers.
var _ = []any{(*SyncTemplate).clearImagePullSecrets, (*SyncTemplate).keepConditions, (*SyncTemplate).markAddOns, (*SyncTemplate).mergeLabels, (*SyncTemplate).pinFinalizer, (*SyncTemplate).reportConditions, (*SyncTemplate).reportPorts, (*SyncTemplate).resetAnnotationsLogged, (*SyncTemplate).resetOwners, (*SyncTemplate).restoreOwners, (*SyncTemplate).restoreOwnersBySetter, (*SyncTemplate).stripAndPatch, (*SyncTemplate).syncFromTemplate}

// markPorts records each port's condition in a loop whose round changes
// the Widget before it takes the snapshot: the change of the next round is
// in the next snapshot, and each patch sends only the condition set after
// it. markPortsLate sets the conditions after the snapshot: reported.
func (r *SyncTemplate) markPorts(ctx context.Context, key client.ObjectKey) error {
	w := &widgetsv1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for _, port := range w.Spec.Ports {
		w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{Type: "Seen" + strconv.Itoa(int(port)), Status: metav1.ConditionTrue})
		patch := client.MergeFrom(w.DeepCopy())
		w.Status.ObservedGeneration = w.Generation
		if err := r.Status().Patch(ctx, w, patch); err != nil {
			return err
		}
	}
	return nil
}

func (r *SyncTemplate) markPortsLate(ctx context.Context, key client.ObjectKey) error {
	w := &widgetsv1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	for _, port := range w.Spec.Ports {
		patch := client.MergeFrom(w.DeepCopy())
		w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{Type: "Seen" + strconv.Itoa(int(port)), Status: metav1.ConditionTrue})
		if err := r.Status().Patch(ctx, w, patch); err != nil { // want "^unconditional-patch: Status\\(\\)\\.Patch of w .*status.conditions list"
			return err
		}
	}
	return nil
}

var _ = []any{(*SyncTemplate).markPorts, (*SyncTemplate).markPortsLate}

// pinFinalizerOnCopy changes the Widget's finalizers, then patches a deep
// copy of it: the copy carries the changed list. relabelOnCopy sets one
// label the same way: a merge patch of a map sends only that key.
func (r *SyncTemplate) pinFinalizerOnCopy(ctx context.Context, w *widgetsv1.Widget) error {
	orig := w.DeepCopy()
	w.Finalizers = append(w.Finalizers, "example.com/pin")
	return r.Patch(ctx, w.DeepCopy(), client.MergeFrom(orig)) // want "^unconditional-patch: Patch of a copy of w sends .*the finalizers list of w changed"
}

func (r *SyncTemplate) relabelOnCopy(ctx context.Context, w *widgetsv1.Widget) error {
	orig := w.DeepCopy()
	w.Labels["example.com/pinned"] = "true"
	return r.Patch(ctx, w.DeepCopy(), client.MergeFrom(orig))
}

func (r *SyncTemplate) pinWidget(ctx context.Context, key client.ObjectKey) error {
	w := &widgetsv1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.relabelOnCopy(ctx, w); err != nil {
		return err
	}
	return r.pinFinalizerOnCopy(ctx, w)
}

var _ = []any{(*SyncTemplate).pinWidget}

// rebuildSpec sets the whole spec to one built from the template, then
// adds an environment variable to its first container: the containers
// list, and the env list in it, are the ones built, not the ones read.
// extendEnv adds the same variable to the containers read.
func (r *SyncTemplate) rebuildSpec(ctx context.Context, key client.ObjectKey, tmpl *corev1.PodTemplate) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	deploy.Spec = specFromTemplate(tmpl)
	ct := &deploy.Spec.Template.Spec.Containers[0]
	ct.Env = append(ct.Env, corev1.EnvVar{Name: "POD_NAME", Value: key.Name})
	return r.Patch(ctx, deploy, client.MergeFrom(base))
}

func (r *SyncTemplate) extendEnv(ctx context.Context, key client.ObjectKey) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	ct := &deploy.Spec.Template.Spec.Containers[0]
	ct.Env = append(ct.Env, corev1.EnvVar{Name: "POD_NAME", Value: key.Name})
	return r.Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: Patch of deploy .*spec.template.spec.containers list"
}

func specFromTemplate(tmpl *corev1.PodTemplate) appsv1.DeploymentSpec {
	return appsv1.DeploymentSpec{
		Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: tmpl.Template.Spec.Containers[0].Image}}}},
	}
}

var _ = []any{(*SyncTemplate).rebuildSpec, (*SyncTemplate).extendEnv}
