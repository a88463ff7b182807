// Package disabled checks that a directive is not reported as unused when a
// rule it covers does not run (here stale-read is disabled).
package disabled

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

func relabel(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) //lostupdate:ignore stale-read labels are ours
	if err != nil {
		return err
	}
	pod.Labels["example.com/seen"] = "true"
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}) //nolint:lostupdate // covers stale-read too, which does not run
	return err
}

func relabelFresh(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{}) //lostupdate:ignore missing-retry not here // want "^unused-directive: "
	if err != nil {
		return err
	}
	pod.Labels["example.com/seen"] = "true"
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// The functions above are run by the program's workers.
var _ = []any{relabel, relabelFresh}
