package unconditionalpatch

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
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

// pruneFinalizers sets the finalizers to the one named after a field of
// the spec it read: computed from the object, so a retry after a conflict
// would compute it again from a spec that changed meanwhile.
func (r *SyncTemplate) pruneFinalizers(ctx context.Context, key client.ObjectKey) error {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, key, deploy); err != nil {
		return err
	}
	base := deploy.DeepCopy()
	storage := deploy.Spec.Template.Spec.ServiceAccountName
	deploy.Finalizers = []string{"example.com/" + storage}
	return r.Patch(ctx, deploy, client.MergeFrom(base)) // want "^unconditional-patch: Patch of deploy .*finalizers list"
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
