package patchbodies

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// ScaleFromZero scales a canary Deployment back up: to its own replica
// count when it has one (read from the Deployment the patch names, and sent
// back without a precondition: a concurrent scale is reverted), else to the
// primary's. The finding's read is the canary's, not the primary's.
func ScaleFromZero(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	dep, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	replicas := int32(1)
	if dep.Spec.Replicas != nil && *dep.Spec.Replicas > 0 {
		replicas = *dep.Spec.Replicas
	} else {
		primary, err := cs.AppsV1().Deployments(ns).Get(ctx, name+"-primary", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if primary.Spec.Replicas != nil {
			replicas = *primary.Spec.Replicas
		}
	}
	patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas)
	_, err = cs.AppsV1().Deployments(ns).Patch(ctx, dep.GetName(), types.MergePatchType, []byte(patch), metav1.PatchOptions{}) // want `^unconditional-patch: Patch sends a merge patch without a precondition, and its body sets spec\.replicas to a value computed from the object read earlier`
	return err
}
