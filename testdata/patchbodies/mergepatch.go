package patchbodies

import (
	"context"
	"encoding/json"

	jsonpatch "github.com/evanphx/json-patch/v5"
	jsonpatchv4 "gopkg.in/evanphx/json-patch.v4"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/jsonmergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// ConfigMapFinalizerReconciler adds its finalizer and sends the diff of the
// marshalled ConfigMap before and after as a JSON merge patch (json-patch
// v4): the patch carries the whole finalizer list, and drops a finalizer
// added after the read.
type ConfigMapFinalizerReconciler struct {
	client.Client
}

func (r *ConfigMapFinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before, err := json.Marshal(cm)
	if err != nil {
		return ctrl.Result{}, err
	}
	if !controllerutil.AddFinalizer(cm, cleanupFinalizer) {
		return ctrl.Result{}, nil
	}
	after, err := json.Marshal(cm)
	if err != nil {
		return ctrl.Result{}, err
	}
	data, err := jsonpatchv4.CreateMergePatch(before, after)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Patch(ctx, cm, client.RawPatch(types.MergePatchType, data)) // want `^unconditional-patch: Patch of cm sends a merge patch from CreateMergePatch without a precondition, and the finalizers list of the object changed since the snapshot`
}

// LockedConfigMapFinalizerReconciler marshals the old side with its
// resourceVersion cleared: the diff then carries the resourceVersion read,
// and the server rejects the patch with 409 if the ConfigMap changed.
type LockedConfigMapFinalizerReconciler struct {
	client.Client
}

func (r *LockedConfigMapFinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	old := cm.DeepCopy()
	old.ResourceVersion = ""
	before, err := json.Marshal(old)
	if err != nil {
		return ctrl.Result{}, err
	}
	if !controllerutil.AddFinalizer(cm, cleanupFinalizer) {
		return ctrl.Result{}, nil
	}
	after, err := json.Marshal(cm)
	if err != nil {
		return ctrl.Result{}, err
	}
	data, err := jsonpatchv4.CreateMergePatch(before, after)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Patch(ctx, cm, client.RawPatch(types.MergePatchType, data))
}

// SecretReleaseReconciler removes its finalizer from a Secret that is not
// being deleted, through a json-patch v5 merge patch of the diff: the
// remaining list goes out whole and drops a finalizer added meanwhile.
type SecretReleaseReconciler struct {
	client.Client
}

func (r *SecretReleaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if secret.Labels["widgets.example.com/retain"] == "true" {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.release(ctx, &secret)
}

func (r *SecretReleaseReconciler) release(ctx context.Context, secret *corev1.Secret) error {
	before, err := json.Marshal(secret)
	if err != nil {
		return err
	}
	controllerutil.RemoveFinalizer(secret, cleanupFinalizer)
	after, err := json.Marshal(secret)
	if err != nil {
		return err
	}
	data, err := jsonpatch.CreateMergePatch(before, after)
	if err != nil {
		return err
	}
	return r.Patch(ctx, secret, client.RawPatch(types.MergePatchType, data)) // want `^unconditional-patch: Patch of secret sends a merge patch from CreateMergePatch without a precondition, and the finalizers list of the object changed since the snapshot`
}

// DeletedSecretReleaseReconciler does the same once the Secret is being
// deleted: the API server refuses new finalizers then, so a stale list that
// brings back a finalizer removed meanwhile is rejected, not applied.
type DeletedSecretReleaseReconciler struct {
	client.Client
}

func (r *DeletedSecretReleaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if secret.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	before, err := json.Marshal(&secret)
	if err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(&secret, cleanupFinalizer)
	after, err := json.Marshal(&secret)
	if err != nil {
		return ctrl.Result{}, err
	}
	data, err := jsonpatch.CreateMergePatch(before, after)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Patch(ctx, &secret, client.RawPatch(types.MergePatchType, data))
}

// An adopter appends an owner reference to a copy of the ConfigMap it read
// and sends the two-way JSON merge patch: ownerReferences go out whole.
func badAdoptWithJSONMergePatch(ctx context.Context, cs kubernetes.Interface, ns, name string, owner metav1.OwnerReference) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	before, err := json.Marshal(cm)
	if err != nil {
		return err
	}
	adopted := cm.DeepCopy()
	adopted.OwnerReferences = append(adopted.OwnerReferences, owner)
	after, err := json.Marshal(adopted)
	if err != nil {
		return err
	}
	data, err := jsonpatch.CreateMergePatch(before, after)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a merge patch from CreateMergePatch without a precondition, and the ownerReferences list of the object changed since the snapshot`
	return err
}

// The same change as a two-way strategic merge patch: ownerReferences merge
// by uid (patchStrategy=merge in ObjectMeta), so the patch adds one
// reference and keeps the others.
func okAdoptWithStrategicMergePatch(ctx context.Context, cs kubernetes.Interface, ns, name string, owner metav1.OwnerReference) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	before, err := json.Marshal(cm)
	if err != nil {
		return err
	}
	adopted := cm.DeepCopy()
	adopted.OwnerReferences = append(adopted.OwnerReferences, owner)
	after, err := json.Marshal(adopted)
	if err != nil {
		return err
	}
	data, err := strategicpatch.CreateTwoWayMergePatch(before, after, corev1.ConfigMap{})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.StrategicMergePatchType, data, metav1.PatchOptions{})
	return err
}

// A two-way strategic merge patch after adding an external IP to the
// Service read: spec.externalIPs has no patch strategy, so the strategic
// patch replaces the list.
func badExternalIPsWithStrategicMergePatch(ctx context.Context, cs kubernetes.Interface, ns, name, ip string) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	before, err := json.Marshal(svc)
	if err != nil {
		return err
	}
	updated := svc.DeepCopy()
	updated.Spec.ExternalIPs = append(updated.Spec.ExternalIPs, ip)
	after, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	data, err := strategicpatch.CreateTwoWayMergePatch(before, after, corev1.Service{})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.StrategicMergePatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a strategic merge patch from CreateTwoWayMergePatch without a precondition, and the spec.externalIPs list of the object changed since the snapshot \(a strategic merge patch replaces a list without a merge key whole\)`
	return err
}

// A three-way JSON merge patch from the ConfigMap read (current) to its copy
// with one more finalizer (modified): the change since current, the whole
// finalizer list, goes out.
func badThreeWayJSONMergePatchFinalizer(ctx context.Context, cs kubernetes.Interface, ns, name string, lastApplied []byte) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	current, err := json.Marshal(cm)
	if err != nil {
		return err
	}
	modified := cm.DeepCopy()
	modified.Finalizers = append(modified.Finalizers, cleanupFinalizer)
	modifiedData, err := json.Marshal(modified)
	if err != nil {
		return err
	}
	data, err := jsonmergepatch.CreateThreeWayJSONMergePatch(lastApplied, modifiedData, current)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a merge patch from CreateThreeWayJSONMergePatch without a precondition, and the finalizers list of the object changed since the snapshot`
	return err
}

// The apply-like three-way patch of a desired object the program builds:
// its finalizers are the controller's own decision, not a read-modify-write.
func okThreeWayJSONMergePatchDesired(ctx context.Context, cs kubernetes.Interface, ns, name string, lastApplied []byte) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	current, err := json.Marshal(cm)
	if err != nil {
		return err
	}
	desired := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Finalizers: []string{cleanupFinalizer}},
		Data:       map[string]string{"mode": "active"},
	}
	modifiedData, err := json.Marshal(desired)
	if err != nil {
		return err
	}
	data, err := jsonmergepatch.CreateThreeWayJSONMergePatch(lastApplied, modifiedData, current)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{})
	return err
}

// OwnerReferenceReconciler appends an owner reference and merge-patches with
// client.MergeFrom: ownerReferences go out whole.
type OwnerReferenceReconciler struct {
	client.Client
	Owner metav1.OwnerReference
}

func (r *OwnerReferenceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := cm.DeepCopy()
	cm.OwnerReferences = append(cm.OwnerReferences, r.Owner)
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base)) // want `^unconditional-patch: Patch of cm sends a merge patch from MergeFrom without a precondition, and the ownerReferences list of cm changed since the snapshot`
}

// LockedOwnerReferenceReconciler does the same with the optimistic lock.
type LockedOwnerReferenceReconciler struct {
	client.Client
	Owner metav1.OwnerReference
}

func (r *LockedOwnerReferenceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := cm.DeepCopy()
	cm.OwnerReferences = append(cm.OwnerReferences, r.Owner)
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// A three-way strategic merge patch from the Service read to its copy with
// one more external IP: spec.externalIPs has no patch strategy, so the list
// goes out whole.
func badThreeWayStrategicExternalIPs(ctx context.Context, cs kubernetes.Interface, ns, name, ip string, lastApplied []byte) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	current, err := json.Marshal(svc)
	if err != nil {
		return err
	}
	modified := svc.DeepCopy()
	modified.Spec.ExternalIPs = append(modified.Spec.ExternalIPs, ip)
	modifiedData, err := json.Marshal(modified)
	if err != nil {
		return err
	}
	meta, err := strategicpatch.NewPatchMetaFromStruct(corev1.Service{})
	if err != nil {
		return err
	}
	data, err := strategicpatch.CreateThreeWayMergePatch(lastApplied, modifiedData, current, meta, true)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.StrategicMergePatchType, data, metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a strategic merge patch from CreateThreeWayMergePatch without a precondition, and the spec.externalIPs list of the object changed since the snapshot`
	return err
}

// The same three-way strategic merge patch adding a finalizer: finalizers
// merge (patchStrategy=merge in ObjectMeta), so the patch adds one entry and
// keeps the others.
func okThreeWayStrategicFinalizer(ctx context.Context, cs kubernetes.Interface, ns, name string, lastApplied []byte) error {
	svc, err := cs.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	current, err := json.Marshal(svc)
	if err != nil {
		return err
	}
	modified := svc.DeepCopy()
	modified.Finalizers = append(modified.Finalizers, cleanupFinalizer)
	modifiedData, err := json.Marshal(modified)
	if err != nil {
		return err
	}
	meta, err := strategicpatch.NewPatchMetaFromStruct(corev1.Service{})
	if err != nil {
		return err
	}
	data, err := strategicpatch.CreateThreeWayMergePatch(lastApplied, modifiedData, current, meta, true)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Services(ns).Patch(ctx, name, types.StrategicMergePatchType, data, metav1.PatchOptions{})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badAdoptWithJSONMergePatch, badExternalIPsWithStrategicMergePatch, badThreeWayJSONMergePatchFinalizer, badThreeWayStrategicExternalIPs}

// The functions above are run by the program's workers.
var _ = []any{okAdoptWithStrategicMergePatch, okThreeWayJSONMergePatchDesired, okThreeWayStrategicFinalizer}
