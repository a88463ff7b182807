// Package controller reconciles Guestbooks into Deployments.
package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	webappv1 "example.com/guestbook-operator/api/v1"
)

// GuestbookReconciler runs a Deployment per Guestbook.
type GuestbookReconciler struct {
	client.Client
}

// Reconcile makes the Deployment match the Guestbook and reports its status.
func (r *GuestbookReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)

	gb := &webappv1.Guestbook{}
	if err := r.Get(ctx, req.NamespacedName, gb); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.ensureFinalizer(ctx, gb); err != nil {
		return ctrl.Result{}, err
	}

	desired := desiredDeployment(gb)
	var current appsv1.Deployment
	err := r.Get(ctx, req.NamespacedName, &current)
	switch {
	case apierrors.IsNotFound(err):
		if err := r.Create(ctx, desired); err != nil {
			return ctrl.Result{}, err
		}
	case err != nil:
		return ctrl.Result{}, err
	default:
		// Bug: desired was built from scratch; the PUT carries no
		// resourceVersion and overwrites whatever changed since (an HPA's
		// replica count, another controller's annotations).
		if err := r.Update(ctx, desired); err != nil {
			return ctrl.Result{}, err
		}
	}

	gb.Status.ReadyReplicas = current.Status.ReadyReplicas
	meta.SetStatusCondition(&gb.Status.Conditions, metav1.Condition{
		Type: "Available", Status: metav1.ConditionTrue, Reason: "DeploymentReady",
	})
	// Bug: a 409 Conflict here is only logged; the status change is lost
	// and nothing requeues the Guestbook.
	if err := r.Status().Update(ctx, gb); err != nil {
		log.Error(err, "unable to update Guestbook status")
	}
	return ctrl.Result{}, nil
}

func desiredDeployment(gb *webappv1.Guestbook) *appsv1.Deployment {
	labels := map[string]string{"app": gb.Name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: gb.Name, Namespace: gb.Namespace, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: &gb.Spec.Replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "guestbook", Image: gb.Spec.Image,
				}}},
			},
		},
	}
}
