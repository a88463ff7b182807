// Package suppress checks the suppression directives: golangci-lint's
// //nolint, which the standalone command and go vet honour too, and
// //lostupdate:ignore <rule> <reason>.
package suppress

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// A //nolint:lostupdate with a reason, at the end of the line of the finding.
func nolintOnTheLine(ctx context.Context, cs kubernetes.Interface, ns string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns}}
	_, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) //nolint:lostupdate // the installer owns this ConfigMap
	return err
}

// The same write without the directive is reported.
func noDirective(ctx context.Context, cs kubernetes.Interface, ns string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns}}
	_, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// golangci-lint also accepts a space after the slashes, a list of linters,
// nolint:all and a bare nolint.
func nolintSpellings(ctx context.Context, cs kubernetes.Interface, ns string) {
	a := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: ns}}
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, a, metav1.UpdateOptions{}) // nolint:lostupdate
	b := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: ns}}
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, b, metav1.UpdateOptions{}) //nolint:errcheck,LostUpdate
	c := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: ns}}
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, c, metav1.UpdateOptions{}) //nolint:all
	d := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: ns}}
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, d, metav1.UpdateOptions{}) //nolint
}

// A nolint for other linters only does not suppress lostupdate.
func nolintForOthers(ctx context.Context, cs kubernetes.Interface, ns string) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns}}
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) //nolint:errcheck // want "^unconditional-update: "
}

// A directive on its own line covers the statement below it, all its lines.
func nolintAboveStatement(ctx context.Context, cs kubernetes.Interface, name string) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	// The node agent is the only writer of this label.
	//nolint:lostupdate
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		node.Labels["example.com/agent"] = "ready"
		_, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
}

// A directive at the end of the first line of a statement covers that line
// only, as in golangci-lint.
func nolintAtStatementEnd(ctx context.Context, cs kubernetes.Interface, name string) error {
	node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { //nolint:lostupdate
		node.Labels["example.com/agent"] = "ready"
		_, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want "^stale-retry: "
		return err
	})
}

// A directive above a function covers the whole function.
//
//nolint:lostupdate // bootstrap code, runs before any other writer
func nolintAboveFunction(ctx context.Context, cs kubernetes.Interface, ns string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "bootstrap", Namespace: ns}}
	if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		return err
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "bootstrap", Namespace: ns}}
	_, err := cs.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
	return err
}

// //lostupdate:ignore suppresses the rules it names, and only those.
func ignoreByRule(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"}) //lostupdate:ignore stale-read the pod's labels are only ours
	if err != nil {
		return
	}
	pod.Labels["example.com/seen"] = "true"
	_, _ = cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}) //lostupdate:ignore stale-read wrong rule // want "^missing-retry: "
}

// //lostupdate:ignore on its own line, for two rules, above a statement.
func ignoreAboveStatement(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	pod, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	pod.Labels["example.com/seen"] = "true"
	//lostupdate:ignore missing-retry,stale-retry best effort; the next resync relabels
	if _, err := cs.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}); err != nil {
		println(err.Error())
	}
}

// A directive that names an unknown rule, or none, suppresses nothing and
// is reported.
func badDirectives(ctx context.Context, cs kubernetes.Interface, ns string) {
	a := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: ns}}
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, a, metav1.UpdateOptions{}) //lostupdate:ignore unconditional-updates typo // want "^unconditional-update: " "^bad-directive: //lostupdate:ignore unconditional-updates names unknown rule \"unconditional-updates\""
	b := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: ns}}
	_, _ = cs.CoreV1().ConfigMaps(ns).Update(ctx, b, metav1.UpdateOptions{}) //lostupdate:ignore // want "^unconditional-update: " "^bad-directive: //lostupdate:ignore names no rule"
}

// The functions above are run by the controller's workers.
var _ = []any{badDirectives, ignoreByRule, noDirective, nolintAtStatementEnd, nolintForOthers}

// The functions above are run by the program's workers.
var _ = []any{ignoreAboveStatement, nolintAboveFunction, nolintAboveStatement, nolintOnTheLine, nolintSpellings}
