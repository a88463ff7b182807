package unconditionalupdate

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

func newWorkerDeployment(ns, image string, replicas int32) *appsv1.Deployment {
	labels := map[string]string{"app": "worker"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "worker", Namespace: ns, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "worker", Image: image}},
				},
			},
		},
	}
}

// "Create, and on AlreadyExists replace": an operator that renders the whole ConfigMap and reads nothing claims the object whole, by design; the replace works for a built-in kind. Not reported.
func okReplaceAfterAlreadyExists(ctx context.Context, cs kubernetes.Interface, ns string, settings map[string]string) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "app-settings", Namespace: ns},
		Data:       settings,
	}
	_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	}
	return err
}

// The same replace, as rook and karmada write it: Create, and only on a failure that is AlreadyExists, Update.
func okReplaceSecretOnAlreadyExists(ctx context.Context, cs kubernetes.Interface, secret *corev1.Secret) (*corev1.Secret, error) {
	s, err := cs.CoreV1().Secrets(secret.Namespace).Create(ctx, secret, metav1.CreateOptions{})
	if err != nil {
		if !apierrors.IsAlreadyExists(err) {
			return nil, err
		}
		s, err = cs.CoreV1().Secrets(secret.Namespace).Update(ctx, secret, metav1.UpdateOptions{})
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// A caller of that helper passes a built Secret: the helper replaces it, so the call is not reported either.
func okReplaceSecretThroughHelper(ctx context.Context, cs kubernetes.Interface, ns string, key []byte) error {
	_, err := okReplaceSecretOnAlreadyExists(ctx, cs, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "keyring", Namespace: ns},
		Data:       map[string][]byte{"key": key},
	})
	return err
}

// An existence check that keeps nothing of what it read, then Create or Update of the Secret built here: a replace too.
func okReplaceAfterExistenceCheck(ctx context.Context, cs kubernetes.Interface, ns string, key []byte) error {
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "keyring", Namespace: ns}, Data: map[string][]byte{"key": key}}
	_, err := cs.CoreV1().Secrets(ns).Get(ctx, secret.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = cs.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
	return err
}

// The control: the existence check keeps the live Secret (it reads its labels), so its resourceVersion is at hand and the PUT of the built one is reported.
func badReplaceWithLiveAtHand(ctx context.Context, cs kubernetes.Interface, ns string, key []byte) error {
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "keyring", Namespace: ns}, Data: map[string][]byte{"key": key}}
	live, err := cs.CoreV1().Secrets(ns).Get(ctx, secret.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = cs.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	secret.Labels = live.Labels
	_, err = cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}) // want "^unconditional-update: .*secret"
	return err
}

// The control: Update after a Create that failed with AlreadyExists or succeeded: the PUT also runs after a successful Create, on an object built without a resourceVersion.
func badUpdateAfterCreateOrAlreadyExists(ctx context.Context, cs kubernetes.Interface, ns string, settings map[string]string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "app-settings", Namespace: ns}}
	_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	cm.Data = settings
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unconditional-update: .*cm"
	return err
}

// The control: a successful Create, then a PUT of the same built object (client-go's Create does not fill it in): not a replace, reported.
func badUpdateAfterCreateSucceeded(ctx context.Context, cs kubernetes.Interface, ns string, settings map[string]string) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "app-settings", Namespace: ns},
	}
	if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		return err
	}
	cm.Data = settings
	_, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unconditional-update: .*cm"
	return err
}

// Read the live Deployment only to diff it, then PUT the built one: the read's resourceVersion never reaches the write.
func badUpdateOfDesiredAfterDiff(ctx context.Context, cs kubernetes.Interface, ns, image string) error {
	desired := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Template: corev1.PodTemplateSpec{
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}},
			},
		},
	}
	deployments := cs.AppsV1().Deployments(ns)
	existing, err := deployments.Get(ctx, desired.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = deployments.Create(ctx, desired, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	if equality.Semantic.DeepEqual(existing.Spec.Template, desired.Spec.Template) {
		return nil
	}
	_, err = deployments.Update(ctx, desired, metav1.UpdateOptions{}) // want "^unconditional-update: .*desired"
	return err
}

// A node agent reports pod status by PUTting a literal: every status field it does not set, and every concurrent status write, is lost.
func badUpdateStatusOfLiteralPod(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	_, err := cs.CoreV1().Pods(ns).UpdateStatus(ctx, &corev1.Pod{ // want "^unconditional-update: "
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning},
	}, metav1.UpdateOptions{})
	return err
}

// new(T) filled field by field is still a constructed object.
func badUpdateOfNewService(ctx context.Context, cs kubernetes.Interface, ns string) error {
	svc := new(corev1.Service)
	svc.Name = "metrics"
	svc.Namespace = ns
	svc.Spec.Selector = map[string]string{"app": "exporter"}
	svc.Spec.Ports = []corev1.ServicePort{{Name: "metrics", Port: 9090}}
	_, err := cs.CoreV1().Services(ns).Update(ctx, svc, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// A zero-value Secret rotated in place: the PUT carries no resourceVersion.
func badUpdateOfZeroValueSecret(ctx context.Context, cs kubernetes.Interface, ns string, token []byte) error {
	var secret corev1.Secret
	secret.Name = "api-token"
	secret.Namespace = ns
	secret.Type = corev1.SecretTypeOpaque
	secret.Data = map[string][]byte{"token": token}
	_, err := cs.CoreV1().Secrets(ns).Update(ctx, &secret, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// The "fix" for 409s seen in many repositories: blank the resourceVersion so the server stops checking, which turns the update into a blind overwrite.
func badUpdateAfterClearingResourceVersion(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["last-sync"] = time.Now().UTC().Format(time.RFC3339)
	cm.ResourceVersion = ""                                                     // avoid conflicts with the other replicas
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unconditional-update: .*cm"
	return err
}

// Resetting metadata to "what we manage" replaces the ObjectMeta that held the resourceVersion with a fresh literal.
func badUpdateAfterReplacingObjectMeta(ctx context.Context, cs kubernetes.Interface, ns, name string, labels map[string]string) error {
	sa, err := cs.CoreV1().ServiceAccounts(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	sa.ObjectMeta = metav1.ObjectMeta{
		Name:      sa.Name,
		Namespace: sa.Namespace,
		Labels:    labels,
	}
	_, err = cs.CoreV1().ServiceAccounts(ns).Update(ctx, sa, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// A builder in the same package returns a fresh object; writing it with PUT overwrites the live Deployment (including the HPA's replica count).
func badUpdateOfBuiltDeployment(ctx context.Context, cs kubernetes.Interface, ns, image string) error {
	dep := newWorkerDeployment(ns, image, 3)
	_, err := cs.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// Plain read-modify-write: the Get's resourceVersion travels with the object.
func okGetModifyUpdate(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/reviewed"] = "true"
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// A DeepCopy of the read keeps its resourceVersion.
func okDeepCopyUpdate(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	current, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	scaled := current.DeepCopy()
	scaled.Spec.Replicas = ptr.To(replicas)
	_, err = cs.AppsV1().Deployments(ns).Update(ctx, scaled, metav1.UpdateOptions{})
	return err
}

// Items of a List carry their own resourceVersions.
func okListItemsByIndex(ctx context.Context, cs kubernetes.Interface, ns string) error {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=batch"})
	if err != nil {
		return err
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels["example.com/drained"] = "true"
		if _, err := cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// The range variable is a copy of a listed item, resourceVersion included.
func okListRangeVariable(ctx context.Context, cs kubernetes.Interface, ns string) error {
	secrets, err := cs.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{LabelSelector: "rotate=true"})
	if err != nil {
		return err
	}
	for _, s := range secrets.Items {
		delete(s.Labels, "rotate")
		if _, err := cs.CoreV1().Secrets(ns).Update(ctx, &s, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("secret %s: %w", s.Name, err)
		}
	}
	return nil
}

// The desired object is built, but the live resourceVersion is copied onto it before the PUT: the server still rejects a stale write.
func okDesiredWithCopiedResourceVersion(ctx context.Context, cs kubernetes.Interface, ns, image string) error {
	desired := newWorkerDeployment(ns, image, 3)
	existing, err := cs.AppsV1().Deployments(ns).Get(ctx, desired.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	desired.ResourceVersion = existing.ResourceVersion
	_, err = cs.AppsV1().Deployments(ns).Update(ctx, desired, metav1.UpdateOptions{})
	return err
}

// The usual reconcile shape: copy the desired spec onto the live object and write the live object.
func okExistingTakesDesiredSpec(ctx context.Context, cs kubernetes.Interface, ns, image string) error {
	desired := newWorkerDeployment(ns, image, 2)
	existing, err := cs.AppsV1().Deployments(ns).Get(ctx, desired.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	existing.Spec = desired.Spec
	_, err = cs.AppsV1().Deployments(ns).Update(ctx, existing, metav1.UpdateOptions{})
	return err
}

// Taking the whole ObjectMeta of the live object brings its resourceVersion.
func okDesiredTakesExistingObjectMeta(ctx context.Context, cs kubernetes.Interface, ns string, data map[string]string) error {
	desired := &corev1.ConfigMap{Data: data}
	existing, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "feature-flags", metav1.GetOptions{})
	if err != nil {
		return err
	}
	desired.ObjectMeta = existing.ObjectMeta
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, desired, metav1.UpdateOptions{})
	return err
}

// Creating a built object is not an overwrite: Create fails if it exists.
func okCreateOfBuiltConfigMap(ctx context.Context, cs kubernetes.Interface, ns string) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "bootstrap", Namespace: ns},
		Data:       map[string]string{"phase": "init"},
	}
	_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
	return err
}

// Copying a Secret into another namespace clears the resourceVersion, as Create requires; nothing is written with PUT.
func okClearedCopyCreated(ctx context.Context, cs kubernetes.Interface, from, to, name string) error {
	src, err := cs.CoreV1().Secrets(from).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	dst := src.DeepCopy()
	dst.Namespace = to
	dst.ResourceVersion = ""
	dst.UID = ""
	_, err = cs.CoreV1().Secrets(to).Create(ctx, dst, metav1.CreateOptions{})
	return err
}

// The built object is written with PUT only in the branch that copied the live resourceVersion onto it; the other branch creates it.
func okUpdateOnlyWhereCopied(ctx context.Context, cs kubernetes.Interface, ns string, data map[string]string) error {
	desired := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "routes", Namespace: ns},
		Data:       data,
	}
	existing, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, desired.Name, metav1.GetOptions{})
	if err == nil {
		desired.ResourceVersion = existing.ResourceVersion
		_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, desired, metav1.UpdateOptions{})
		return err
	}
	if !apierrors.IsNotFound(err) {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(ns).Create(ctx, desired, metav1.CreateOptions{})
	return err
}

// borderline: the spec names no provenance for the object a Create returns; it carries the server's resourceVersion, so the status PUT is conditional.
// Status is ignored on Create, so the created object is written again with UpdateStatus.
func okUpdateStatusOfCreatedPod(ctx context.Context, cs kubernetes.Interface, ns string) error {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "probe", Namespace: ns},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "probe", Image: "busybox"}},
		},
	}
	created, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	created.Status.Conditions = append(created.Status.Conditions, corev1.PodCondition{
		Type:   "example.com/Scheduled",
		Status: corev1.ConditionTrue,
	})
	_, err = cs.CoreV1().Pods(ns).UpdateStatus(ctx, created, metav1.UpdateOptions{})
	return err
}

// A lease holder keeps the last Lease it wrote in a field and renews from it; where the field came from is not visible here.
type fieldLeaseRenewer struct {
	cs    kubernetes.Interface
	lease *coordinationv1.Lease
}

func (l *fieldLeaseRenewer) renew(ctx context.Context) error {
	now := metav1.NewMicroTime(time.Now())
	l.lease.Spec.RenewTime = &now
	updated, err := l.cs.CoordinationV1().Leases(l.lease.Namespace).Update(ctx, l.lease, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	l.lease = updated
	return nil
}

// A helper that writes its parameter: the provenance is the caller's.
func updateNodeLabels(ctx context.Context, cs kubernetes.Interface, node *corev1.Node, labels map[string]string) error {
	if node.Labels == nil {
		node.Labels = map[string]string{}
	}
	for k, v := range labels {
		node.Labels[k] = v
	}
	_, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	return err
}

// The only caller passes a node it just read.
func okLabelNodeThroughHelper(ctx context.Context, cs kubernetes.Interface, name string) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return updateNodeLabels(ctx, cs, node, map[string]string{"example.com/pool": "batch"})
}

// replicaSync is a per-reconcile context; its ConfigMap is filled by a read
// after the context is built, so the Update carries that read's
// resourceVersion.
type replicaSync struct {
	name string
	cm   *corev1.ConfigMap
	// desired is built by the program: a PUT of it is unconditional.
	desired *corev1.ConfigMap
}

func syncReplicaConfig(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	rs := &replicaSync{name: name}
	var err error
	rs.cm, err = cs.CoreV1().ConfigMaps(ns).Get(ctx, rs.name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	rs.cm.Data["synced"] = "true"
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, rs.cm, metav1.UpdateOptions{})
	return err
}

func syncReplicaConfigDesired(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	rs := &replicaSync{name: name}
	rs.desired = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: map[string]string{"synced": "true"}}
	_, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, rs.desired, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badReplaceWithLiveAtHand, badUpdateAfterClearingResourceVersion, badUpdateAfterCreateOrAlreadyExists, badUpdateAfterCreateSucceeded, badUpdateAfterReplacingObjectMeta, badUpdateOfBuiltDeployment, badUpdateOfDesiredAfterDiff, badUpdateOfNewService, badUpdateOfZeroValueSecret, badUpdateStatusOfLiteralPod, syncReplicaConfigDesired}

// The functions above are run by the program's workers.
var _ = []any{(*fieldLeaseRenewer).renew, okClearedCopyCreated, okCreateOfBuiltConfigMap, okDeepCopyUpdate, okDesiredTakesExistingObjectMeta, okDesiredWithCopiedResourceVersion, okExistingTakesDesiredSpec, okGetModifyUpdate, okLabelNodeThroughHelper, okListItemsByIndex, okListRangeVariable, okReplaceAfterAlreadyExists, okReplaceAfterExistenceCheck, okReplaceSecretThroughHelper, okUpdateOnlyWhereCopied, okUpdateStatusOfCreatedPod, syncReplicaConfig}
