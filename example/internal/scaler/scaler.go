// Package scaler sizes and labels the guestbook's Deployment with the typed
// clientset.
package scaler

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// ApplyReplicas sets the replica count with Server-Side Apply.
func ApplyReplicas(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	cfg := appsv1ac.Deployment(name, ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(replicas))
	// Bug: a 409 from Server-Side Apply is a field-ownership conflict (an
	// HPA owns spec.replicas); retrying the same apply cannot clear it.
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.AppsV1().Deployments(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "guestbook"})
		return err
	})
}

// Pause marks the Deployment paused, retrying until it sticks.
func Pause(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	// Bug: no attempt bound and no backoff: under contention this loop
	// hammers the API server forever.
	for {
		d, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		d.Spec.Paused = true
		_, err = cs.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			continue
		}
		return err
	}
}

// SetImage swaps the image only if nobody changed the Deployment since rv.
func SetImage(ctx context.Context, cs kubernetes.Interface, ns, name, rv, image string) error {
	patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},`+
		`{"op":"replace","path":"/spec/template/spec/containers/0/image","value":%q}]`, rv, image)
	// Bug: a failed test op is answered with 422, not 409: RetryOnConflict
	// never retries, and the first failure is final.
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.AppsV1().Deployments(ns).Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
}
