package unconditionalpatch

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const roleLabel = "example.com/role"

// RoleLabeler marks the data pods of a cluster with their role after a
// failover, as Redis and PostgreSQL operators do: the desired role starts
// as the current one, is decided from the new primary, and a pod whose
// role does not change is skipped. Where the label is patched, it is set
// to "primary" or "replica", a value the controller decides, never the one
// it read.
type RoleLabeler struct {
	client.Client
}

func (r *RoleLabeler) Relabel(ctx context.Context, ns, oldPrimary, newPrimary string) error {
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		current := pod.Labels[roleLabel]
		desired := current
		if pod.Name == newPrimary {
			desired = "primary"
		} else if pod.Name == oldPrimary || current == "primary" {
			desired = "replica"
		}
		if desired == current {
			continue
		}
		patch := client.MergeFrom(pod.DeepCopy())
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels[roleLabel] = desired
		if err := r.Patch(ctx, pod, patch); err != nil {
			return err
		}
	}
	return nil
}

// RelabelAll is the positive control: without the skip, a pod that is
// neither primary keeps the role it was read with, and the patch writes
// that value back over whatever was set meanwhile.
func (r *RoleLabeler) RelabelAll(ctx context.Context, ns, newPrimary string) error {
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(ns)); err != nil {
		return err
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		current := pod.Labels[roleLabel]
		desired := current
		if pod.Name == newPrimary {
			desired = "primary"
		}
		patch := client.MergeFrom(pod.DeepCopy())
		pod.Labels[roleLabel] = desired
		if err := r.Patch(ctx, pod, patch); err != nil { // want "^unconditional-patch: Patch of pod .*labels of pod is set from a value read from it"
			return err
		}
	}
	return nil
}
