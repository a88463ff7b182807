// Package unused checks the report of directives that suppress nothing
// (Config.ReportUnusedDirectives).
package unused

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Directives that suppress a finding are not reported.
func used(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns}}
	if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { //nolint:lostupdate // owned by the installer
		return err
	}
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) //lostupdate:ignore stale-read labels are ours
	if err != nil {
		return err //nolint:lostupdate // want "^unused-directive: //nolint:lostupdate suppresses no finding; remove it$"
	}
	pod.Labels["example.com/seen"] = "true"
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// The code was fixed, the directives stayed.
func fixedSinceThen(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	//lostupdate:ignore stale-read,missing-retry was a cache read // want `^unused-directive: //lostupdate:ignore stale-read,missing-retry suppresses no stale-read or missing-retry finding; remove it$`
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	pod.Labels["example.com/seen"] = "true"
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}) //nolint:errcheck,lostupdate // want "^unused-directive: //nolint:errcheck,lostupdate suppresses no finding of lostupdate; remove lostupdate from it$"
	return err
}

// Directives that do not name lostupdate are not lostupdate's to report.
func othersDirectives(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{}) //nolint
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}) //nolint:errcheck,gosec
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{used}

// The functions above are run by the program's workers.
var _ = []any{fixedSinceThen, othersDirectives}
