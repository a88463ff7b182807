package missingretry

import (
	"context"
	"log"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ReplicaScaler sets the replica count of the Deployments it lists through
// the scale subresource, with a Scale built from the count it computed:
// c.SubResource("scale").Update(ctx, d, client.WithSubResourceBody(scale))
// PUTs the Scale, which carries no resourceVersion, so no 409 can come
// back; the Deployment read only names what is scaled. A blind write of one
// value, as a patch of a constant is.
type ReplicaScaler struct {
	client    client.Client
	clientset kubernetes.Interface
}

func (s *ReplicaScaler) setReplicas(ctx context.Context, d *appsv1.Deployment, replicas int32) {
	scale := &autoscalingv1.Scale{Spec: autoscalingv1.ScaleSpec{Replicas: replicas}}
	if err := s.client.SubResource("scale").Update(ctx, d, client.WithSubResourceBody(scale)); err != nil {
		log.Printf("scaling %s: %v", d.Name, err)
	}
}

func (s *ReplicaScaler) scaleAll(ctx context.Context, replicas int32) {
	var list appsv1.DeploymentList
	if err := s.client.List(ctx, &list); err != nil {
		return
	}
	for i := range list.Items {
		s.setReplicas(ctx, &list.Items[i], replicas)
	}
}

// The same with the typed client's UpdateScale of a Scale built here.
func (s *ReplicaScaler) setTypedReplicas(ctx context.Context, ns, name string, replicas int32) {
	scale := &autoscalingv1.Scale{Spec: autoscalingv1.ScaleSpec{Replicas: replicas}}
	scale.Name, scale.Namespace = name, ns
	if _, err := s.clientset.AppsV1().Deployments(ns).UpdateScale(ctx, name, scale, metav1.UpdateOptions{}); err != nil {
		log.Printf("scaling %s: %v", name, err)
	}
}

// The positive control: the Scale read from the subresource, changed and
// sent back with the resourceVersion read; its 409 is only logged.
func (s *ReplicaScaler) addReplica(ctx context.Context, d *appsv1.Deployment) {
	scale := &autoscalingv1.Scale{}
	if err := s.client.SubResource("scale").Get(ctx, d, scale); err != nil {
		return
	}
	scale.Spec.Replicas++
	if err := s.client.SubResource("scale").Update(ctx, d, client.WithSubResourceBody(scale)); err != nil { // want `^missing-retry: SubResource\("scale"\)\.Update of scale is a read-modify-write`
		log.Printf("scaling %s: %v", d.Name, err)
	}
}

var _ = []any{(*ReplicaScaler).scaleAll, (*ReplicaScaler).setTypedReplicas, (*ReplicaScaler).addReplica}
