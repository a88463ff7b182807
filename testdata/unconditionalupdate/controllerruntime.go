package unconditionalupdate

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"lostupdate.test/unconditionalupdate/kubeutil"
)

// WebAppReconciler keeps the objects of a web app.
type WebAppReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// FoundVsDesiredReconciler keeps a Deployment per web app.
type FoundVsDesiredReconciler struct {
	client.Client
}

func (r *FoundVsDesiredReconciler) desiredDeployment(req ctrl.Request) *appsv1.Deployment {
	labels := map[string]string{"app": req.Name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}
}

// The scaffolded "found vs desired" reconcile that writes desired instead of found: the read resourceVersion is dropped and concurrent edits are overwritten.
func (r *FoundVsDesiredReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	desired := r.desiredDeployment(req)
	found := &appsv1.Deployment{}
	err := r.Get(ctx, req.NamespacedName, found)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, r.Create(ctx, desired)
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	if equality.Semantic.DeepDerivative(desired.Spec, found.Spec) {
		return ctrl.Result{}, nil
	}
	if err := r.Update(ctx, desired); err != nil { // want "^unconditional-update: .*desired"
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// LBStatusFromLiteralReconciler assigns external IPs to Services of type LoadBalancer.
type LBStatusFromLiteralReconciler struct {
	client.Client
	allocate func(types.NamespacedName) string
}

// A load-balancer controller writes the Service status from a literal named after the request, without reading the Service first.
func (r *LBStatusFromLiteralReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace}}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: r.allocate(req.NamespacedName)}}
	if err := r.Status().Update(ctx, svc); err != nil { // want "^unconditional-update: "
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// NodeConditionLiteralReconciler publishes a node condition from an out-of-band health check.
type NodeConditionLiteralReconciler struct {
	client.Client
}

// The status subresource written through SubResource("status") with a built Node replaces conditions other agents posted.
func (r *NodeConditionLiteralReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	err := r.SubResource("status").Update(ctx, &corev1.Node{ // want "^unconditional-update: "
		ObjectMeta: metav1.ObjectMeta{Name: req.Name},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{
			Type:   "example.com/DiskHealthy",
			Status: corev1.ConditionTrue,
		}}},
	})
	return ctrl.Result{}, err
}

// SetResourceVersion("") on a typed object read with the controller-runtime client turns the update into an overwrite.
func (r *WebAppReconciler) badUpdateAfterSetResourceVersionEmpty(ctx context.Context, key types.NamespacedName) error {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, key, &cm); err != nil {
		return err
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/owner"] = "webapp"
	cm.SetResourceVersion("")
	return r.Update(ctx, &cm) // want "^unconditional-update: "
}

// A builder from the shared kubeutil package returns a fresh Service, which the reconciler PUTs over the live one.
func (r *WebAppReconciler) badUpdateOfKubeutilService(ctx context.Context, req ctrl.Request) error {
	svc := kubeutil.DesiredService(req.Namespace, req.Name, 8080)
	if err := r.Get(ctx, req.NamespacedName, &corev1.Service{}); err != nil {
		if apierrors.IsNotFound(err) {
			return r.Create(ctx, svc)
		}
		return err
	}
	return r.Update(ctx, svc) // want "^unconditional-update: "
}

// The write is in kubeutil.ForceUpdate; the caller hands it a freshly built ServiceAccount, so the caller's call is the unconditional update.
func (r *WebAppReconciler) badForceUpdateOfBuiltServiceAccount(ctx context.Context, req ctrl.Request) error {
	sa := kubeutil.DesiredServiceAccount(req.Namespace, req.Name)
	return kubeutil.ForceUpdate(ctx, r.Client, sa) // want "^unconditional-update: "
}

// The write is two helpers away, in kubeutil.ForceUpdate through kubeutil.SaveObject: reported at the call, pointing at the write.
func (r *WebAppReconciler) badSaveOfBuiltServiceAccount(ctx context.Context, req ctrl.Request) error {
	sa := kubeutil.DesiredServiceAccount(req.Namespace, req.Name)
	return kubeutil.SaveObject(ctx, r.Client, sa) // want "^unconditional-update: SaveObject updates sa, "
}

// A RoleBinding literal written inline after an existence check.
func (r *WebAppReconciler) badUpdateOfRoleBindingLiteral(ctx context.Context, req ctrl.Request) error {
	key := types.NamespacedName{Namespace: req.Namespace, Name: req.Name + "-view"}
	if err := r.Get(ctx, key, &rbacv1.RoleBinding{}); err != nil {
		return client.IgnoreNotFound(err)
	}
	return r.Update(ctx, &rbacv1.RoleBinding{ // want "^unconditional-update: "
		ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: req.Name, Namespace: req.Namespace}},
	})
}

// GetIntoNamedObjectReconciler parks Deployments annotated for sleep.
type GetIntoNamedObjectReconciler struct {
	client.Client
}

// The object is built with only its name, then filled by Get before the write: a naive "composite literal" check would flag this idiomatic shape.
func (r *GetIntoNamedObjectReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace}}
	if err := r.Get(ctx, client.ObjectKeyFromObject(dep), dep); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if dep.Annotations["example.com/sleep"] != "true" {
		return ctrl.Result{}, nil
	}
	dep.Spec.Replicas = ptr.To[int32](0)
	return ctrl.Result{}, r.Update(ctx, dep)
}

// ZeroValueGetReconciler stamps a restart annotation on StatefulSets.
type ZeroValueGetReconciler struct {
	client.Client
}

// A zero value passed to Get by address is filled with the live object and its resourceVersion.
func (r *ZeroValueGetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var sts appsv1.StatefulSet
	if err := r.Get(ctx, req.NamespacedName, &sts); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sts.Spec.Template.Annotations == nil {
		sts.Spec.Template.Annotations = map[string]string{}
	}
	sts.Spec.Template.Annotations["example.com/restartedAt"] = metav1.Now().Format("2006-01-02T15:04:05Z")
	if err := r.Update(ctx, &sts); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// CreateOrUpdateReconciler renders a ConfigMap per request with CreateOrUpdate.
type CreateOrUpdateReconciler struct {
	client.Client
}

// CreateOrUpdate reads into the built object before it mutates and updates it.
func (r *CreateOrUpdateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: req.Name + "-config", Namespace: req.Namespace}}
	op, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		cm.Data = map[string]string{"app": req.Name}
		return nil
	})
	log.FromContext(ctx).Info("config reconciled", "operation", op)
	return ctrl.Result{}, err
}

// borderline: the spec names no provenance for an object filled in by Create; it then holds the server's resourceVersion, so the status PUT is conditional.
// A virtual-kubelet-style provider registers its Node, then posts the Node status on the object Create filled in.
func okStatusUpdateAfterCreate(ctx context.Context, c client.Client, name string, capacity corev1.ResourceList) error {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"type": "virtual-kubelet"}}}
	if err := c.Create(ctx, node); err != nil {
		return err
	}
	node.Status.Capacity = capacity
	node.Status.Allocatable = capacity
	return c.Status().Update(ctx, node)
}

// Relabelling listed objects through the controller-runtime client: list items carry resourceVersions.
func okUpdateListedPods(ctx context.Context, c client.Client, ns string) error {
	var pods corev1.PodList
	if err := c.List(ctx, &pods, client.InNamespace(ns), client.MatchingLabels{"tier": "legacy"}); err != nil {
		return err
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		pod.Labels["tier"] = "standard"
		if err := c.Update(ctx, pod); err != nil {
			return err
		}
	}
	return nil
}

// A built Service takes the live resourceVersion through the metav1.Object accessors before Update.
func (r *WebAppReconciler) okServiceWithCopiedResourceVersion(ctx context.Context, req ctrl.Request) error {
	desired := kubeutil.DesiredService(req.Namespace, req.Name, 8080)
	existing := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, existing); err != nil {
		return err
	}
	desired.Spec.ClusterIP = existing.Spec.ClusterIP
	desired.SetResourceVersion(existing.GetResourceVersion())
	return r.Update(ctx, desired)
}

// The usual status write at the end of a reconcile, on the object read at its start.
func (r *WebAppReconciler) okStatusUpdateAfterGet(ctx context.Context, key types.NamespacedName) error {
	var dep appsv1.Deployment
	if err := r.Get(ctx, key, &dep); err != nil {
		return err
	}
	dep.Status.Conditions = append(dep.Status.Conditions, appsv1.DeploymentCondition{
		Type:   "example.com/Checked",
		Status: corev1.ConditionTrue,
	})
	return r.Status().Update(ctx, &dep)
}

// kubeutil.ForceUpdate handed an object the caller just read: the write is conditional.
func (r *WebAppReconciler) okForceUpdateOfReadServiceAccount(ctx context.Context, key types.NamespacedName) error {
	sa := &corev1.ServiceAccount{}
	if err := r.Get(ctx, key, sa); err != nil {
		return err
	}
	sa.AutomountServiceAccountToken = ptr.To(false)
	return kubeutil.ForceUpdate(ctx, r.Client, sa)
}

// The live object takes the desired state by DeepCopyInto, then the resourceVersion it had, saved before the copy.
func (r *WebAppReconciler) okDeepCopyIntoLiveKeepingResourceVersion(ctx context.Context, req ctrl.Request) error {
	desired := kubeutil.DesiredService(req.Namespace, req.Name, 8080)
	current := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, current); err != nil {
		return err
	}
	resourceVersion := current.GetResourceVersion()
	desired.DeepCopyInto(current)
	current.SetResourceVersion(resourceVersion)
	return r.Update(ctx, current)
}

// DeepCopyInto of a built object replaces the live object's resourceVersion with none.
func (r *WebAppReconciler) badDeepCopyIntoLive(ctx context.Context, req ctrl.Request) error {
	desired := kubeutil.DesiredService(req.Namespace, req.Name, 8080)
	current := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, current); err != nil {
		return err
	}
	desired.DeepCopyInto(current)
	return r.Update(ctx, current) // want "^unconditional-update: "
}

// The methods above are run by the controller's workers.
var _ = []any{(*WebAppReconciler).badDeepCopyIntoLive, (*WebAppReconciler).badForceUpdateOfBuiltServiceAccount, (*WebAppReconciler).badSaveOfBuiltServiceAccount, (*WebAppReconciler).badUpdateAfterSetResourceVersionEmpty, (*WebAppReconciler).badUpdateOfKubeutilService, (*WebAppReconciler).badUpdateOfRoleBindingLiteral}

// The functions above are run by the program's workers.
var _ = []any{(*WebAppReconciler).okDeepCopyIntoLiveKeepingResourceVersion, (*WebAppReconciler).okForceUpdateOfReadServiceAccount, (*WebAppReconciler).okServiceWithCopiedResourceVersion, (*WebAppReconciler).okStatusUpdateAfterGet, okStatusUpdateAfterCreate, okUpdateListedPods}

// AutoscalerReconciler claims the autoscaler of each app whole: built from
// the app, in the API version the cluster serves, and created or replaced.
// The builder returns a client.Object, but a HorizontalPodAutoscaler on
// every path: a create-or-replace of a built-in kind, not reported.
type AutoscalerReconciler struct {
	client.Client
	V2 bool
}

func (r *AutoscalerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	hpa := kubeutil.DesiredAutoscaler(req.Namespace, req.Name, r.V2)
	return ctrl.Result{}, kubeutil.CreateOrReplaceObject(ctx, r.Client, hpa)
}

// The control: the same object only updated, never created. The PUT
// without a resourceVersion overwrites the autoscaler.
func (r *AutoscalerReconciler) resize(ctx context.Context, req ctrl.Request) error {
	hpa := kubeutil.DesiredAutoscaler(req.Namespace, req.Name, r.V2)
	return r.Update(ctx, hpa) // want "^unconditional-update: .*so the PUT silently overwrites concurrent changes;"
}

var _ = []any{(*AutoscalerReconciler).resize}

// kubeutil.CreateOrUpdate PUTs its argument only when it carries a
// resourceVersion; a built one is created and read back first. (The
// reconciler reads its owner: a read it could copy a resourceVersion from
// is at hand.)
func (r *WebAppReconciler) okCreateOrUpdateOfBuiltServiceAccount(ctx context.Context, req ctrl.Request) error {
	var owner appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &owner); err != nil {
		return err
	}
	sa := kubeutil.DesiredServiceAccount(req.Namespace, owner.Name)
	return kubeutil.CreateOrUpdate(ctx, r.Client, sa)
}

func (r *WebAppReconciler) okSaveOrUpdateOfBuiltServiceAccount(ctx context.Context, req ctrl.Request) error {
	var owner appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &owner); err != nil {
		return err
	}
	sa := kubeutil.DesiredServiceAccount(req.Namespace, owner.Name)
	return kubeutil.SaveOrUpdate(ctx, r.Client, sa)
}

// kubeutil.UpdateAfterCheck writes the built object whatever its test found.
func (r *WebAppReconciler) badUpdateAfterCheckOfBuiltServiceAccount(ctx context.Context, req ctrl.Request) error {
	var owner appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &owner); err != nil {
		return err
	}
	sa := kubeutil.DesiredServiceAccount(req.Namespace, owner.Name)
	return kubeutil.UpdateAfterCheck(ctx, r.Client, sa) // want "^unconditional-update: UpdateAfterCheck updates sa, "
}

// kubeutil.CreateOrLabel PUTs the built object when it exists already.
func (r *WebAppReconciler) badCreateOrLabelOfBuiltServiceAccount(ctx context.Context, req ctrl.Request) error {
	var owner appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &owner); err != nil {
		return err
	}
	sa := kubeutil.DesiredServiceAccount(req.Namespace, owner.Name)
	return kubeutil.CreateOrLabel(ctx, r.Client, sa) // want "^unconditional-update: CreateOrLabel updates sa, "
}

var _ = []any{(*WebAppReconciler).badCreateOrLabelOfBuiltServiceAccount}

var _ = []any{(*WebAppReconciler).okCreateOrUpdateOfBuiltServiceAccount, (*WebAppReconciler).okSaveOrUpdateOfBuiltServiceAccount, (*WebAppReconciler).badUpdateAfterCheckOfBuiltServiceAccount}
