// Package driver checks the Analyzer as the golangci-lint plugin configures
// it (Config.NolintByDriver): //nolint is left to golangci-lint, which
// drops the issues itself, and so is reporting unused ones (nolintlint);
// //lostupdate:ignore still works.
package driver

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

func nolintLeftToTheDriver(ctx context.Context, cs kubernetes.Interface, ns string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns}}
	_, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) //nolint:lostupdate // want "^unconditional-update: "
	return err
}

func unusedNolintLeftToTheDriver(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{}) //nolint:lostupdate
	if err != nil {
		return err
	}
	cm.Data["k"] = "v"
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

func ignoreStillApplies(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) //lostupdate:ignore stale-read labels are ours
	if err != nil {
		return err
	}
	pod.Labels["example.com/seen"] = "true"
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}) //lostupdate:ignore stale-retry nothing to suppress // want "^unused-directive: "
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{ignoreStillApplies, nolintLeftToTheDriver}

// The functions above are run by the program's workers.
var _ = []any{unusedNolintLeftToTheDriver}
