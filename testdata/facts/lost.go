package facts

import (
	"context"
	"errors"

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

// Handler wraps the helpers for the controllers of other packages.
type Handler struct {
	Client client.Client
}

// SetSynced is called by Handler.Sync, which hands the object on from its
// own callers: both are judged at the calls of Sync in other packages.
func (h *Handler) SetSynced(ctx context.Context, cm *corev1.ConfigMap) { // want SetSynced:"writes #2 with update losing its error"
	cm.Labels["example.com/synced"] = "true"
	if err := h.Client.Update(ctx, cm); err != nil {
		logf.FromContext(ctx).Error(err, "cannot mark the ConfigMap synced")
	}
}

// Sync is exported and called nowhere here.
func (h *Handler) Sync(ctx context.Context, cm *corev1.ConfigMap) { // want Sync:"writes #2 with update losing its error"
	h.SetSynced(ctx, cm)
}

// SetSeen is also called by a function of this package that goes on after
// it: reported here.
func (h *Handler) SetSeen(ctx context.Context, cm *corev1.ConfigMap) { // want SetSeen:"writes #2 with update$"
	cm.Labels["example.com/seen"] = "true"
	if err := h.Client.Update(ctx, cm); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		logf.FromContext(ctx).Error(err, "cannot mark the ConfigMap seen")
	}
}

// SeenAll lists the ConfigMaps itself and goes on after each.
func (h *Handler) SeenAll(ctx context.Context, ns string) {
	var list corev1.ConfigMapList
	if err := h.Client.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return
	}
	for i := range list.Items {
		h.SetSeen(ctx, &list.Items[i])
	}
}

// SetPhase is deferred by Handler.Apply, which is given the object by its
// own callers: the write runs when Apply returns, and what becomes of its
// failure is for the callers of Apply to decide.
func (h *Handler) SetPhase(ctx context.Context, cm *corev1.ConfigMap) { // want SetPhase:"writes #2 with update losing its error"
	if err := h.Client.Update(ctx, cm); err != nil {
		logf.FromContext(ctx).Error(err, "cannot record the phase")
	}
}

// Apply records the phase when it returns, whatever it returns.
func (h *Handler) Apply(ctx context.Context, cm *corev1.ConfigMap) (int, error) { // want Apply:"writes #2 with update losing its error"
	defer h.SetPhase(ctx, cm)
	if cm.Data["mode"] == "" {
		cm.Labels["example.com/phase"] = "invalid"
		return 0, errInvalid
	}
	cm.Labels["example.com/phase"] = "applied"
	return len(cm.Data), nil
}

var errInvalid = errors.New("no mode")

// SetOutcome is deferred by a function of this package that goes on after
// it: reported here.
func (h *Handler) SetOutcome(ctx context.Context, cm *corev1.ConfigMap) { // want SetOutcome:"writes #2 with update$"
	if err := h.Client.Update(ctx, cm); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		logf.FromContext(ctx).Error(err, "cannot record the outcome")
	}
}

// OutcomeAll lists the ConfigMaps itself and defers the write of each.
func (h *Handler) OutcomeAll(ctx context.Context, ns string) {
	var list corev1.ConfigMapList
	if err := h.Client.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return
	}
	for i := range list.Items {
		func() {
			defer h.SetOutcome(ctx, &list.Items[i])
			list.Items[i].Labels["example.com/outcome"] = "seen"
		}()
	}
}
