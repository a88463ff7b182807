package missingretry

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// errResync asks the work queue to run the step again later.
var errResync = errors.New("wait for the pod to be bound, requeue")

// A claim of an idle pod: a conflict on one candidate moves on to the next.
// The helper that picks the pod catches the conflict, and its caller hands
// back the pod it got, but the step that calls them fails (asks for a
// requeue) on every path: a caught conflict reaches the retry of the step.
type podClaimer struct {
	c client.Client
}

func (r *podClaimer) bind(ctx context.Context, claim string) error {
	pod, err := r.claim(ctx, claim)
	if err != nil {
		return err
	}
	if pod == nil {
		logf.FromContext(ctx).Info("no idle pod")
	}
	return errResync
}

func (r *podClaimer) claim(ctx context.Context, claim string) (*corev1.Pod, error) {
	pod, err := r.selectPod(ctx, claim)
	if err != nil || pod == nil {
		return nil, err
	}
	return pod, nil
}

func (r *podClaimer) selectPod(ctx context.Context, claim string) (*corev1.Pod, error) {
	var idle corev1.PodList
	if err := r.c.List(ctx, &idle, client.MatchingLabels{"phase": "idle"}); err != nil {
		return nil, err
	}
	for i := range idle.Items {
		pod := &idle.Items[i]
		pod.Labels["claimed-by"] = claim
		if err := r.c.Update(ctx, pod); err != nil {
			if apierrors.IsConflict(err) {
				continue // taken meanwhile: try the next one
			}
			return nil, err
		}
		return pod, nil
	}
	return nil, nil
}

// The control: the same catch in a step that goes on as if the claim
// succeeded, with no requeue.
func (r *podClaimer) bindOnce(ctx context.Context, claim string) error {
	_, err := r.selectOnce(ctx, claim)
	return err
}

func (r *podClaimer) selectOnce(ctx context.Context, claim string) (*corev1.Pod, error) {
	var idle corev1.PodList
	if err := r.c.List(ctx, &idle, client.MatchingLabels{"phase": "idle"}); err != nil {
		return nil, err
	}
	for i := range idle.Items {
		pod := &idle.Items[i]
		pod.Labels["claimed-by"] = claim
		if err := r.c.Update(ctx, pod); err != nil { // want `^missing-retry: Update of pod is a read-modify-write whose 409 Conflict reaches no retry \(a conflict is caught and ignored\)`
			if apierrors.IsConflict(err) {
				return nil, nil
			}
			return nil, err
		}
		return pod, nil
	}
	return nil, nil
}

var _ = []any{(*podClaimer).bind, (*podClaimer).bindOnce}
