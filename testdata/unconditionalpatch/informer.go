package unconditionalpatch

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// PullSecretController adds the registry pull secret to ServiceAccounts it
// sees in its informer store.
type PullSecretController struct {
	client     kubernetes.Interface
	saIndexer  cache.Indexer
	secretName string
}

// The strategic merge patch is computed from the cached ServiceAccount and
// its edited copy; ServiceAccount.imagePullSecrets has no merge strategy
// (unlike the Pod's), so the patch replaces the whole list.
func (c *PullSecretController) syncServiceAccount(ctx context.Context, key string) error {
	obj, exists, err := c.saIndexer.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	sa := obj.(*corev1.ServiceAccount)
	for _, ref := range sa.ImagePullSecrets {
		if ref.Name == c.secretName {
			return nil
		}
	}
	oldData, err := json.Marshal(sa)
	if err != nil {
		return err
	}
	updated := sa.DeepCopy()
	updated.ImagePullSecrets = append(updated.ImagePullSecrets, corev1.LocalObjectReference{Name: c.secretName})
	newData, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, corev1.ServiceAccount{})
	if err != nil {
		return err
	}
	_, err = c.client.CoreV1().ServiceAccounts(sa.Namespace).Patch(ctx, sa.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// TaintEvictionController clears a maintenance taint from Nodes.
type TaintEvictionController struct {
	client     kubernetes.Interface
	nodeLister corelisters.NodeLister
}

// The taint is removed by its position in the cached Node: a taint added or
// removed meanwhile shifts the list and the wrong taint goes.
func (c *TaintEvictionController) clearMaintenanceTaint(ctx context.Context, nodeName string) error {
	node, err := c.nodeLister.Get(nodeName)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(node.Spec.Taints, func(t corev1.Taint) bool { return t.Key == "example.com/maintenance" })
	if i < 0 {
		return nil
	}
	patch := fmt.Sprintf(`[{"op":"remove","path":"/spec/taints/%d"}]`, i)
	_, err = c.client.CoreV1().Nodes().Patch(ctx, nodeName, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}) // want "^unconditional-patch: "
	return err
}

// ReadinessGateController sets a readiness gate condition on Pods.
type ReadinessGateController struct {
	client    kubernetes.Interface
	podLister corelisters.PodLister
}

// The status patch is a two-way strategic merge patch of the cached Pod:
// status.conditions merge by type, so the patch carries only the condition
// it sets and keeps the kubelet's.
func (c *ReadinessGateController) markTargetRegistered(ctx context.Context, ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	oldData, err := json.Marshal(pod)
	if err != nil {
		return err
	}
	updated := pod.DeepCopy()
	updated.Status.Conditions = append(updated.Status.Conditions, corev1.PodCondition{
		Type:               "target-health.example.com/registered",
		Status:             corev1.ConditionTrue,
		LastTransitionTime: metav1.Now(),
	})
	newData, err := json.Marshal(updated)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldData, newData, corev1.Pod{})
	if err != nil {
		return err
	}
	_, err = c.client.CoreV1().Pods(ns).Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
	return err
}

// DriftController records when it last checked a Deployment.
type DriftController struct {
	client       kubernetes.Interface
	deployLister appslisters.DeploymentLister
}

// A constant-shape annotation patch of a Deployment found in the cache.
func (c *DriftController) stampChecked(ctx context.Context, ns, name string) error {
	deploy, err := c.deployLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	if deploy.Annotations["widgets.example.com/drift-check"] == "disabled" {
		return nil
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"widgets.example.com/checked-at":%q}}}`, time.Now().UTC().Format(time.RFC3339))
	_, err = c.client.AppsV1().Deployments(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// The methods above are run by the controller's workers.
var _ = []any{(*PullSecretController).syncServiceAccount, (*TaintEvictionController).clearMaintenanceTaint}

// The functions above are run by the program's workers.
var _ = []any{(*DriftController).stampChecked, (*ReadinessGateController).markTargetRegistered}
