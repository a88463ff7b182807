package facts

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// MarkSynced labels the ConfigMap it is given and writes it, logging a
// failure: a helper for the controllers of other packages, never called
// here. Whether the failure is lost depends on what its callers do after
// the call, so it is not reported here; its fact says the error is lost.
func MarkSynced(ctx context.Context, c client.Client, cm *corev1.ConfigMap) { // want MarkSynced:"writes #2 with update losing its error"
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["example.com/synced"] = "true"
	if err := c.Update(ctx, cm); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the ConfigMap synced")
	}
}

// markSeen is the same helper, unexported and called nowhere: no caller
// can decide, and nothing is reported in a function used nowhere.
func markSeen(ctx context.Context, c client.Client, cm *corev1.ConfigMap) {
	cm.Labels["example.com/seen"] = "true"
	if err := c.Update(ctx, cm); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		logf.FromContext(ctx).Error(err, "cannot mark the ConfigMap seen")
	}
}

// MarkAll marks the ConfigMaps it lists itself: the object is not its
// parameter, so the write is judged here.
func MarkAll(ctx context.Context, c client.Client, ns string) {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return
	}
	for i := range list.Items {
		markSeen(ctx, c, &list.Items[i])
	}
}
