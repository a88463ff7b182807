// Package objutil holds object helpers an operator keeps in a package of
// their own: they change a list of the object they are given, and the
// callers that patch it with a merge patch are in another package.
package objutil

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// EnsureFinalizer adds f to obj's finalizers with the setter of the
// interface.
func EnsureFinalizer(obj client.Object, f string) {
	if slices.Contains(obj.GetFinalizers(), f) {
		return
	}
	obj.SetFinalizers(append(obj.GetFinalizers(), f))
}

// AddSecretFinalizer adds f to a Secret's finalizers with the setter its
// ObjectMeta brings.
func AddSecretFinalizer(secret *corev1.Secret, f string) {
	secret.SetFinalizers(append(secret.GetFinalizers(), f))
}

// AddMetaFinalizer adds f to the finalizers of the metadata it is given.
func AddMetaFinalizer(meta *metav1.ObjectMeta, f string) {
	meta.Finalizers = append(meta.Finalizers, f)
}

// Adopt makes owner the controller of obj.
func Adopt(owner, obj metav1.Object, scheme *runtime.Scheme) error {
	return ctrl.SetControllerReference(owner, obj, scheme)
}

// DropFinalizer removes f from obj's finalizers with slices.DeleteFunc.
func DropFinalizer(obj client.Object, f string) {
	obj.SetFinalizers(slices.DeleteFunc(obj.GetFinalizers(), func(x string) bool { return x == f }))
}

// Label sets one label on obj: a map, which a merge patch merges key by
// key.
func Label(obj client.Object, key, value string) {
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[key] = value
	obj.SetLabels(labels)
}
