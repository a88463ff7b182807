package unconditionalpatch // want package:"has summaries"

import (
	"context"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/unconditionalpatch/patchutil"
)

const (
	widgetFinalizer     = "widgets.example.com/cleanup"
	deploymentFinalizer = "widgets.example.com/protect"
	fieldManager        = "widget-controller"
)

// WidgetCleanupReconciler removes its finalizer from the Widget it read, once
// it is being deleted, with a JSON merge patch: the patch carries the whole
// remaining finalizer list, but the API server refuses new finalizers on an
// object being deleted, so a stale list that brings back a finalizer removed
// meanwhile is rejected (422), not applied.
type WidgetCleanupReconciler struct {
	client.Client
}

func (r *WidgetCleanupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	base := widget.DeepCopy()
	controllerutil.RemoveFinalizer(widget, widgetFinalizer)
	return ctrl.Result{}, r.Patch(ctx, widget, client.MergeFrom(base))
}

// DeploymentProtectionReconciler adds a finalizer to a Deployment with a JSON
// merge patch (MergeFrom, not StrategicMergeFrom): the finalizer list is
// replaced as a whole, so a concurrent finalizer edit is lost.
type DeploymentProtectionReconciler struct {
	client.Client
}

func (r *DeploymentProtectionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	patch := client.MergeFrom(deploy.DeepCopy())
	if !controllerutil.AddFinalizer(&deploy, deploymentFinalizer) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.Patch(ctx, &deploy, patch) // want "^unconditional-patch: .*deploy"
}

// WidgetStatusReconciler sets a condition with meta.SetStatusCondition and
// merge-patches the status: the patch sends the whole conditions list and
// overwrites conditions other controllers set meanwhile.
type WidgetStatusReconciler struct {
	client.Client
}

func (r *WidgetStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := widget.DeepCopy()
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{
		Type:               "Available",
		Status:             metav1.ConditionTrue,
		Reason:             "DeploymentReady",
		ObservedGeneration: widget.Generation,
	})
	err := r.Status().Patch(ctx, &widget, client.MergeFrom(base)) // want "^unconditional-patch: .*widget"
	return ctrl.Result{}, err
}

// ConfigMapAdoptionReconciler adopts an existing ConfigMap by setting the
// Widget as its controller and merge-patching: ownerReferences go out as a
// whole list, replacing references other owners added.
type ConfigMapAdoptionReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *ConfigMapAdoptionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, types.NamespacedName{Namespace: widget.Namespace, Name: widget.Name + "-config"}, cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	original := cm.DeepCopy()
	if err := controllerutil.SetControllerReference(&widget, cm, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Patch(ctx, cm, client.MergeFrom(original)) // want "^unconditional-patch: .*cm"
}

// WidgetImageReconciler rolls the Widget's image into the first container of
// its Deployment. The index write makes the JSON merge patch carry the whole
// containers list, dropping a container injected meanwhile.
type WidgetImageReconciler struct {
	client.Client
}

func (r *WidgetImageReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, err
	}
	if len(deploy.Spec.Template.Spec.Containers) == 0 {
		return ctrl.Result{}, nil
	}
	base := deploy.DeepCopy()
	deploy.Spec.Template.Spec.Containers[0].Image = widget.Spec.Image
	return ctrl.Result{}, r.Patch(ctx, &deploy, client.MergeFrom(base)) // want "^unconditional-patch: .*deploy"
}

// DedicatedNodeReconciler adds a toleration with a strategic merge patch.
// PodSpec.Tolerations has no merge strategy, so the strategic patch still
// replaces the whole list.
type DedicatedNodeReconciler struct {
	client.Client
}

func (r *DedicatedNodeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, req.NamespacedName, deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := deploy.DeepCopy()
	deploy.Spec.Template.Spec.Tolerations = append(deploy.Spec.Template.Spec.Tolerations, corev1.Toleration{
		Key:      "dedicated",
		Operator: corev1.TolerationOpEqual,
		Value:    "widgets",
		Effect:   corev1.TaintEffectNoSchedule,
	})
	return ctrl.Result{}, r.Patch(ctx, deploy, client.StrategicMergeFrom(base)) // want "^unconditional-patch: .*deploy"
}

// BurstScalerReconciler scales a Deployment up by one replica with a merge
// patch: the new count is computed from the count it read, so two concurrent
// scale-ups produce one.
type BurstScalerReconciler struct {
	client.Client
	MaxReplicas int32
}

func (r *BurstScalerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if deploy.Spec.Replicas == nil || *deploy.Spec.Replicas >= r.MaxReplicas {
		return ctrl.Result{}, nil
	}
	base := deploy.DeepCopy()
	replicas := *deploy.Spec.Replicas + 1
	deploy.Spec.Replicas = &replicas
	return ctrl.Result{}, r.Patch(ctx, &deploy, client.MergeFrom(base)) // want "^unconditional-patch: .*deploy"
}

// WidgetFinalizerReconciler adds its finalizer through the operator's shared
// helper package and merge-patches: the helper's append makes the patch
// replace the finalizer list.
type WidgetFinalizerReconciler struct {
	client.Client
}

func (r *WidgetFinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := widget.DeepCopy()
	if patchutil.EnsureFinalizer(widget, widgetFinalizer) {
		if err := r.Patch(ctx, widget, client.MergeFrom(base)); err != nil { // want "^unconditional-patch: .*widget"
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// SecretReleaseReconciler releases Secrets being deleted through a generic
// helper that drops the finalizer of whatever object it is given (an object
// the caller read) and merge-patches it: its only caller runs it once the
// deletion timestamp is set, when a stale list is rejected rather than
// applied. ArchiveReconciler calls the same kind of helper on an object that
// is not being deleted.
type SecretReleaseReconciler struct {
	client.Client
}

func (r *SecretReleaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if secret.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.release(ctx, &secret)
}

func (r *SecretReleaseReconciler) release(ctx context.Context, obj client.Object) error {
	base := obj.DeepCopyObject().(client.Object)
	patchutil.DropFinalizer(obj, widgetFinalizer)
	return r.Patch(ctx, obj, client.MergeFrom(base))
}

type ArchiveReconciler struct {
	client.Client
}

func (r *ArchiveReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !secret.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.release(ctx, &secret)
	}
	if secret.Labels["example.com/archived"] == "true" {
		return ctrl.Result{}, r.release(ctx, &secret)
	}
	return ctrl.Result{}, nil
}

func (r *ArchiveReconciler) release(ctx context.Context, obj client.Object) error {
	base := obj.DeepCopyObject().(client.Object)
	patchutil.DropFinalizer(obj, widgetFinalizer)
	return r.Patch(ctx, obj, client.MergeFrom(base)) // want "^unconditional-patch: Patch of obj .*finalizers list"
}

// CertificateReconciler edits an unstructured cert-manager Certificate: it
// rewrites spec.dnsNames and merge-patches, replacing names another writer
// added after the read.
type CertificateReconciler struct {
	client.Client
	ExtraDNSName string
}

var certificateGVK = schema.GroupVersionKind{Group: "cert-manager.io", Version: "v1", Kind: "Certificate"}

func (r *CertificateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cert := &unstructured.Unstructured{}
	cert.SetGroupVersionKind(certificateGVK)
	if err := r.Get(ctx, req.NamespacedName, cert); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	names, _, err := unstructured.NestedStringSlice(cert.Object, "spec", "dnsNames")
	if err != nil || slices.Contains(names, r.ExtraDNSName) {
		return ctrl.Result{}, err
	}
	base := cert.DeepCopy()
	if err := unstructured.SetNestedStringSlice(cert.Object, append(names, r.ExtraDNSName), "spec", "dnsNames"); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Patch(ctx, cert, client.MergeFrom(base)) // want "^unconditional-patch: .*cert"
}

// ServiceAccountOwnerReconciler adds a non-controller owner reference through
// a helper of this package; the merge patch replaces the ownerReferences list.
type ServiceAccountOwnerReconciler struct {
	client.Client
}

func (r *ServiceAccountOwnerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sa := &corev1.ServiceAccount{}
	if err := r.Get(ctx, types.NamespacedName{Namespace: widget.Namespace, Name: "widget-runner"}, sa); err != nil {
		return ctrl.Result{}, err
	}
	base := sa.DeepCopy()
	if !addOwner(sa, &widget) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.Patch(ctx, sa, client.MergeFrom(base)) // want "^unconditional-patch: .*sa"
}

// addOwner appends a reference to owner to obj's owner references unless one
// with the same UID is there.
func addOwner(obj metav1.Object, owner *widgetsv1.Widget) bool {
	refs := obj.GetOwnerReferences()
	for _, ref := range refs {
		if ref.UID == owner.UID {
			return false
		}
	}
	obj.SetOwnerReferences(append(refs, metav1.OwnerReference{
		APIVersion: widgetsv1.SchemeGroupVersion.String(),
		Kind:       "Widget",
		Name:       owner.Name,
		UID:        owner.UID,
	}))
	return true
}

// WidgetOrphanReconciler removes a Widget's owner reference from a PVC it
// keeps, with a merge patch of the ownerReferences list.
type WidgetOrphanReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *WidgetOrphanReconciler) orphanClaim(ctx context.Context, widget *widgetsv1.Widget, key types.NamespacedName) error {
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, key, &pvc); err != nil {
		return client.IgnoreNotFound(err)
	}
	base := pvc.DeepCopy()
	if err := controllerutil.RemoveOwnerReference(widget, &pvc, r.Scheme); err != nil {
		return err
	}
	return r.Patch(ctx, &pvc, client.MergeFrom(base)) // want "^unconditional-patch: .*pvc"
}

// WidgetLockedCleanupReconciler removes its finalizer with a merge patch
// that carries the resourceVersion it read (optimistic lock): a concurrent
// change makes it fail with 409 instead of being overwritten.
type WidgetLockedCleanupReconciler struct {
	client.Client
}

func (r *WidgetLockedCleanupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := widget.DeepCopy()
	if !controllerutil.RemoveFinalizer(widget, widgetFinalizer) {
		return ctrl.Result{}, nil
	}
	err := r.Patch(ctx, widget, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
	return ctrl.Result{}, err
}

// DeploymentStrategicFinalizerReconciler adds a finalizer to a built-in
// Deployment with a strategic merge patch: metadata.finalizers has merge
// strategy, so the patch adds one entry and keeps the others.
type DeploymentStrategicFinalizerReconciler struct {
	client.Client
}

func (r *DeploymentStrategicFinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, req.NamespacedName, deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := deploy.DeepCopy()
	if controllerutil.AddFinalizer(deploy, deploymentFinalizer) {
		return ctrl.Result{}, r.Patch(ctx, deploy, client.StrategicMergeFrom(base))
	}
	return ctrl.Result{}, nil
}

// ConfigMapStrategicAdoptionReconciler sets a controller reference on a
// built-in ConfigMap with a strategic merge patch: ownerReferences merge by
// UID, so other owners' references are kept.
type ConfigMapStrategicAdoptionReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *ConfigMapStrategicAdoptionReconciler) adopt(ctx context.Context, widget *widgetsv1.Widget, cm *corev1.ConfigMap) error {
	base := cm.DeepCopy()
	if err := controllerutil.SetControllerReference(widget, cm, r.Scheme); err != nil {
		return err
	}
	return r.Patch(ctx, cm, client.StrategicMergeFrom(base))
}

// NamespaceLabelReconciler labels and annotates the Namespace of a Widget:
// only map keys change, and a merge patch of map keys leaves other keys alone.
type NamespaceLabelReconciler struct {
	client.Client
}

func (r *NamespaceLabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	ns := &corev1.Namespace{}
	if err := r.Get(ctx, types.NamespacedName{Name: req.Namespace}, ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := ns.DeepCopy()
	patchutil.SetLabel(ns, "widgets.example.com/managed", "true")
	if ns.Annotations == nil {
		ns.Annotations = map[string]string{}
	}
	ns.Annotations["widgets.example.com/owner"] = req.Name
	return ctrl.Result{}, r.Patch(ctx, ns, client.MergeFrom(base))
}

// WidgetScaleReconciler copies replicas and the pause flag from the Widget's
// spec onto its Deployment: scalar fields set from another object, sent as a
// merge patch of just those fields.
type WidgetScaleReconciler struct {
	client.Client
}

func (r *WidgetScaleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, err
	}
	base := deploy.DeepCopy()
	deploy.Spec.Replicas = widget.Spec.Replicas
	deploy.Spec.Paused = widget.Spec.Paused
	return ctrl.Result{}, r.Patch(ctx, &deploy, client.MergeFrom(base))
}

// WidgetPhaseReconciler patches the Widget's status with a constant phase and
// the ready count of its Deployment (another object).
type WidgetPhaseReconciler struct {
	client.Client
}

func (r *WidgetPhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, req.NamespacedName, deploy); err != nil {
		return ctrl.Result{}, err
	}
	base := widget.DeepCopy()
	widget.Status.Phase = "Running"
	widget.Status.ReadyReplicas = deploy.Status.ReadyReplicas
	return ctrl.Result{}, r.Status().Patch(ctx, widget, client.MergeFrom(base))
}

// borderline: the patched value is read from the same object, but from
// metadata.generation, not from the patched field: it records what this
// reconcile saw, and no concurrent write to status.observedGeneration is lost.
// WidgetObservedGenerationReconciler records the generation it reconciled,
// the most common status patch of all.
type WidgetObservedGenerationReconciler struct {
	client.Client
}

func (r *WidgetObservedGenerationReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.Status.ObservedGeneration == widget.Generation {
		return ctrl.Result{}, nil
	}
	base := widget.DeepCopy()
	widget.Status.ObservedGeneration = widget.Generation
	return ctrl.Result{}, r.Status().Patch(ctx, widget, client.MergeFrom(base))
}

// WidgetDeploymentApplyReconciler server-side applies the Deployment it
// builds: Server-Side Apply tracks field ownership and is not reported here.
type WidgetDeploymentApplyReconciler struct {
	client.Client
}

func (r *WidgetDeploymentApplyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	deploy := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: widget.Name, Namespace: widget.Namespace},
		Spec: appsv1.DeploymentSpec{
			Replicas: widget.Spec.Replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": widget.Name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": widget.Name}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "widget", Image: widget.Spec.Image}}},
			},
		},
	}
	err := r.Patch(ctx, deploy, client.Apply, client.FieldOwner(fieldManager), client.ForceOwnership)
	return ctrl.Result{}, err
}

// borderline: the merge patch replaces metadata.finalizers with a one-element
// list, but the object was built from a name, never read: not a
// read-modify-write (the strict mode covers it).
// PodGateReconciler builds a Pod reference from its name and patches a
// finalizer onto it without reading it.
type PodGateReconciler struct {
	client.Client
}

func (r *PodGateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name}}
	base := pod.DeepCopy()
	controllerutil.AddFinalizer(pod, "widgets.example.com/gate")
	return ctrl.Result{}, client.IgnoreNotFound(r.Patch(ctx, pod, client.MergeFrom(base)))
}

// WidgetLockedStatusReconciler sets a condition and merge-patches the status
// with the optimistic lock: a concurrent condition change fails with 409.
type WidgetLockedStatusReconciler struct {
	client.Client
}

func (r *WidgetLockedStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget widgetsv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	patch := client.MergeFromWithOptions(widget.DeepCopy(), client.MergeFromWithOptimisticLock{})
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{
		Type:   "Degraded",
		Status: metav1.ConditionFalse,
		Reason: "AsExpected",
	})
	return ctrl.Result{}, r.Status().Patch(ctx, &widget, patch)
}

// DedicatedNodeLockedReconciler adds a toleration with a strategic merge
// patch carrying the optimistic lock.
type DedicatedNodeLockedReconciler struct {
	client.Client
}

func (r *DedicatedNodeLockedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	deploy := &appsv1.Deployment{}
	if err := r.Get(ctx, req.NamespacedName, deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := deploy.DeepCopy()
	deploy.Spec.Template.Spec.Tolerations = append(deploy.Spec.Template.Spec.Tolerations, corev1.Toleration{
		Key:      "dedicated",
		Operator: corev1.TolerationOpExists,
	})
	return ctrl.Result{}, r.Patch(ctx, deploy, client.StrategicMergeFrom(base, client.MergeFromWithOptimisticLock{}))
}

// WidgetPauseReconciler pauses a Widget with a constant raw merge patch.
type WidgetPauseReconciler struct {
	client.Client
}

func (r *WidgetPauseReconciler) pause(ctx context.Context, widget *widgetsv1.Widget) error {
	return r.Patch(ctx, widget, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"paused":true}}`)))
}

// VerboseLoggingReconciler turns on verbose logging in the first container
// of a Deployment with a strategic merge patch. Containers merge by name,
// but the args list of a container is replaced whole: an argument another
// writer added since the read is lost.
type VerboseLoggingReconciler struct {
	client.Client
}

func (r *VerboseLoggingReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := deploy.DeepCopy()
	c := &deploy.Spec.Template.Spec.Containers[0]
	c.Args = append(c.Args, "--v=4")
	return ctrl.Result{}, r.Patch(ctx, &deploy, client.StrategicMergeFrom(base)) // want "^unconditional-patch: Patch of deploy .*containers.args list of deploy changed.*without a merge key"
}

// ImagePinReconciler sets the image of the first container with a strategic
// merge patch: containers merge by name, and a constant image is a blind
// write of one field of one container, not a read-modify-write of a list.
type ImagePinReconciler struct {
	client.Client
	Image string
}

func (r *ImagePinReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := deploy.DeepCopy()
	deploy.Spec.Template.Spec.Containers[0].Image = r.Image
	return ctrl.Result{}, r.Patch(ctx, &deploy, client.StrategicMergeFrom(base))
}

// TaintClusterNodeReconciler changes a copy and patches it against the
// object it read: the diff is all the copy changed, here the whole taints
// list.
type TaintClusterNodeReconciler struct {
	client.Client
}

func (r *TaintClusterNodeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	node := &corev1.Node{}
	if err := r.Get(ctx, req.NamespacedName, node); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	updated := node.DeepCopy()
	updated.Spec.Taints = append(updated.Spec.Taints, corev1.Taint{Key: "example.com/draining", Effect: corev1.TaintEffectNoSchedule})
	return ctrl.Result{}, r.Patch(ctx, updated, client.MergeFrom(node)) // want "^unconditional-patch: Patch of updated .*spec.taints list"
}

// The copy only gets a label: a merge patch of one map key.
type LabelClusterNodeReconciler struct {
	client.Client
}

func (r *LabelClusterNodeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	node := &corev1.Node{}
	if err := r.Get(ctx, req.NamespacedName, node); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	updated := node.DeepCopy()
	if updated.Labels == nil {
		updated.Labels = map[string]string{}
	}
	updated.Labels["example.com/draining"] = "true"
	return ctrl.Result{}, r.Patch(ctx, updated, client.MergeFrom(node))
}

// NodeCapacityReconciler overwrites the capacity from an external source
// after the snapshot and derives the allocatable pods from it: nothing in
// the patch comes from what was read, so it is a blind write of values the
// program decides.
type NodeCapacityReconciler struct {
	client.Client
	Capacity func() corev1.ResourceList
}

func (r *NodeCapacityReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	node := &corev1.Node{}
	if err := r.Get(ctx, req.NamespacedName, node); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	stored := node.DeepCopy()
	node.Status.Capacity = r.Capacity()
	pods := node.Status.Capacity[corev1.ResourcePods]
	node.Status.Allocatable = corev1.ResourceList{corev1.ResourcePods: pods}
	return ctrl.Result{}, r.Status().Patch(ctx, node, client.MergeFrom(stored))
}

// ConfigMapOwnerResetReconciler makes a Widget the only owner of its
// ConfigMap, as fluent-operator's config controllers do: the references
// are cleared and the controller reference set, so the list is built from
// nothing, desired state that a retry would only send again.
type ConfigMapOwnerResetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *ConfigMapOwnerResetReconciler) own(ctx context.Context, widget *widgetsv1.Widget, cm *corev1.ConfigMap, data map[string]string) error {
	_, err := controllerutil.CreateOrPatch(ctx, r.Client, cm, func() error {
		cm.Data = data
		cm.SetOwnerReferences(nil)
		return controllerutil.SetControllerReference(widget, cm, r.Scheme)
	})
	return err
}

// The positive control: the controller reference is added to the
// references read, whose other owners a merge patch drops if they changed.
func (r *ConfigMapOwnerResetReconciler) adopt(ctx context.Context, widget *widgetsv1.Widget, cm *corev1.ConfigMap, data map[string]string) error {
	_, err := controllerutil.CreateOrPatch(ctx, r.Client, cm, func() error { // want "^unconditional-patch: CreateOrPatch .*ownerReferences list"
		cm.Data = data
		return controllerutil.SetControllerReference(widget, cm, r.Scheme)
	})
	return err
}

// The methods above are run by the controller's workers.
var _ = []any{(*ConfigMapOwnerResetReconciler).adopt, (*WidgetOrphanReconciler).orphanClaim}

// The functions above are run by the program's workers.
var _ = []any{(*ConfigMapOwnerResetReconciler).own, (*WidgetPauseReconciler).pause}

// A credentials Secret built with a generateName and no name: the library's
// Get looks it up by an empty name and never finds it, so CreateOrPatch
// always creates it and its mutate function's reference goes into the
// Create, never into a patch.
func (r *ConfigMapOwnerResetReconciler) issueCredentials(ctx context.Context, widget *widgetsv1.Widget, password string) (*corev1.Secret, error) {
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: widget.Name + "-",
			Namespace:    widget.Namespace,
		},
		Data: map[string][]byte{"password": []byte(password)},
	}
	_, err := controllerutil.CreateOrPatch(ctx, r.Client, secret, func() error {
		return controllerutil.SetControllerReference(widget, secret, r.Scheme)
	})
	return secret, err
}

// The positive control: the same Secret, named after the Widget, exists
// after the first pass, and every later pass patches its references.
func (r *ConfigMapOwnerResetReconciler) namedCredentials(ctx context.Context, widget *widgetsv1.Widget, password string) (*corev1.Secret, error) {
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: widget.Name + "-",
			Namespace:    widget.Namespace,
		},
		Data: map[string][]byte{"password": []byte(password)},
	}
	secret.Name = widget.Name + "-credentials"
	_, err := controllerutil.CreateOrPatch(ctx, r.Client, secret, func() error { // want "^unconditional-patch: CreateOrPatch .*ownerReferences list"
		return controllerutil.SetControllerReference(widget, secret, r.Scheme)
	})
	return secret, err
}

var _ = []any{(*ConfigMapOwnerResetReconciler).issueCredentials, (*ConfigMapOwnerResetReconciler).namedCredentials}

// The positive control of a loop: the Secret is built once, before it;
// the first round's Create gives it a name, and every later round patches
// it.
func (r *ConfigMapOwnerResetReconciler) credentialsPerRound(ctx context.Context, widget *widgetsv1.Widget, passwords []string) error {
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: widget.Name + "-",
			Namespace:    widget.Namespace,
		},
	}
	for _, pw := range passwords {
		_, err := controllerutil.CreateOrPatch(ctx, r.Client, secret, func() error { // want "^unconditional-patch: CreateOrPatch .*ownerReferences list"
			secret.Data = map[string][]byte{"password": []byte(pw)}
			return controllerutil.SetControllerReference(widget, secret, r.Scheme)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Metadata kept in variables stored into each other: the analysis cannot
// tell which is the object's, and takes it as named.
func (r *ConfigMapOwnerResetReconciler) swappedMeta(ctx context.Context, widget *widgetsv1.Widget) error {
	var a, b metav1.ObjectMeta
	a.GenerateName = widget.Name + "-"
	b.Namespace = widget.Namespace
	a, b = b, a
	secret := &corev1.Secret{ObjectMeta: a}
	_, err := controllerutil.CreateOrPatch(ctx, r.Client, secret, func() error { // want "^unconditional-patch: CreateOrPatch .*ownerReferences list"
		return controllerutil.SetControllerReference(widget, secret, r.Scheme)
	})
	return err
}

var _ = []any{(*ConfigMapOwnerResetReconciler).credentialsPerRound, (*ConfigMapOwnerResetReconciler).swappedMeta}
