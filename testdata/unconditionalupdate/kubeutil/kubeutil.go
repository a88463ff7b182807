// Package kubeutil holds the small helpers an operator repository keeps
// next to its controllers: object builders and "ensure" functions.
package kubeutil

import (
	"context"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// AppLabels returns the standard labels of the objects owned by app.
func AppLabels(app string) map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":       app,
		"app.kubernetes.io/managed-by": "example-operator",
	}
}

// DesiredService builds the Service that fronts app. The result is freshly
// built and carries no resourceVersion.
func DesiredService(namespace, app string, port int32) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{
			Name:      app,
			Namespace: namespace,
			Labels:    AppLabels(app),
		},
		Spec: corev1.ServiceSpec{
			Selector: AppLabels(app),
			Ports: []corev1.ServicePort{{
				Name: "http",
				Port: port,
			}},
		},
	}
}

// DesiredServiceAccount builds the ServiceAccount that app runs as.
func DesiredServiceAccount(namespace, app string) *corev1.ServiceAccount {
	sa := &corev1.ServiceAccount{}
	sa.Name = app
	sa.Namespace = namespace
	sa.Labels = AppLabels(app)
	return sa
}

// ApplyConfigMap creates desired, or overwrites the existing ConfigMap with
// it when one is already there. desired is written as it was passed in.
func ApplyConfigMap(ctx context.Context, cs kubernetes.Interface, desired *corev1.ConfigMap) error {
	_, err := cs.CoreV1().ConfigMaps(desired.Namespace).Create(ctx, desired, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		_, err = cs.CoreV1().ConfigMaps(desired.Namespace).Update(ctx, desired, metav1.UpdateOptions{})
	}
	return err
}

// EnsureConfigMap creates desired, or updates the existing ConfigMap to it,
// carrying over the resourceVersion of the object it read so that the
// update is conditional.
func EnsureConfigMap(ctx context.Context, cs kubernetes.Interface, desired *corev1.ConfigMap) error {
	cms := cs.CoreV1().ConfigMaps(desired.Namespace)
	existing, err := cms.Get(ctx, desired.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = cms.Create(ctx, desired, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	desired.ResourceVersion = existing.ResourceVersion
	_, err = cms.Update(ctx, desired, metav1.UpdateOptions{})
	return err
}

// ForceUpdate writes obj with a controller-runtime client, whatever it holds.
func ForceUpdate(ctx context.Context, c client.Client, obj client.Object) error {
	return c.Update(ctx, obj)
}

// SaveObject passes obj on to ForceUpdate: a caller's finding points at the
// write in ForceUpdate, at the end of the chain.
func SaveObject(ctx context.Context, c client.Client, obj client.Object) error {
	return ForceUpdate(ctx, c, obj)
}

// ReconcileParams says what ReconcileResource keeps: the object it wants,
// and where it leaves the object as the server has it.
type ReconcileParams struct {
	Client     client.Client
	Expected   client.Object
	Reconciled client.Object
}

// ReconcileResource creates Expected if it does not exist, and reads the
// object into Reconciled, as cloud-on-k8s's reconciler.ReconcileResource does.
func ReconcileResource(ctx context.Context, p ReconcileParams) error {
	err := p.Client.Get(ctx, client.ObjectKeyFromObject(p.Expected), p.Reconciled)
	if apierrors.IsNotFound(err) {
		if err := p.Client.Create(ctx, p.Expected); err != nil {
			return err
		}
		return p.Client.Get(ctx, client.ObjectKeyFromObject(p.Expected), p.Reconciled)
	}
	return err
}

// Resources creates and replaces the objects an operator claims whole.
type Resources struct {
	Client client.Client
}

// CreateOrReplace creates obj through its client.Object view, and replaces
// it on AlreadyExists: the create-or-replace idiom, on another view of the
// same object.
func (r *Resources) CreateOrReplace(obj metav1.Object) error {
	clientObj, ok := obj.(client.Object)
	if !ok {
		return apierrors.NewBadRequest("not a client.Object")
	}
	err := r.Client.Create(context.TODO(), clientObj)
	if err != nil && apierrors.IsAlreadyExists(err) {
		return r.Replace(obj)
	}
	return err
}

// Replace updates obj as it is given.
func (r *Resources) Replace(obj metav1.Object) error {
	clientObj, ok := obj.(client.Object)
	if !ok {
		return apierrors.NewBadRequest("not a client.Object")
	}
	return r.Client.Update(context.TODO(), clientObj)
}

// DesiredAutoscaler builds the autoscaler of app in the API version the
// cluster serves, as a client.Object: a HorizontalPodAutoscaler, a
// built-in kind, either way.
func DesiredAutoscaler(namespace, app string, v2 bool) client.Object {
	meta := metav1.ObjectMeta{Name: app, Namespace: namespace, Labels: AppLabels(app)}
	if v2 {
		return &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: meta}
	}
	return &autoscalingv1.HorizontalPodAutoscaler{ObjectMeta: meta}
}

// CreateOrReplaceObject replaces obj whole, and creates it when it does
// not exist yet.
func CreateOrReplaceObject(ctx context.Context, c client.Client, obj client.Object) error {
	if err := c.Update(ctx, obj); apierrors.IsNotFound(err) {
		return c.Create(ctx, obj)
	} else if err != nil {
		return err
	}
	return nil
}
