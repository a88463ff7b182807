package unconditionalupdate

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"lostupdate.test/unconditionalupdate/kubeutil"
)

// scriptsReconciler reaches the helpers of kubeutil.Resources through the
// methods it promotes.
type scriptsReconciler struct {
	kubeutil.Resources
}

// A ConfigMap of scripts the operator generates whole, created or replaced
// by a helper of another package that creates it through another view.
func (r *scriptsReconciler) okScriptsConfigMap(ns string, scripts map[string]string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "scripts", Namespace: ns}, Data: scripts}
	return r.CreateOrReplace(cm)
}

// The control: a ConfigMap built and replaced, never created.
func (r *scriptsReconciler) badScriptsReplaceOnly(ns string, scripts map[string]string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "scripts", Namespace: ns}, Data: scripts}
	return r.Replace(cm) // want "^unconditional-update: "
}

// The functions above are run by the controller's workers.
var _ = []any{(*scriptsReconciler).okScriptsConfigMap, (*scriptsReconciler).badScriptsReplaceOnly}
