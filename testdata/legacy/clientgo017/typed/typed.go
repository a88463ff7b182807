// Package typed holds the shapes of client-go's typed clientsets before
// v0.18, whose methods take no context and no write options:
// Get(name, metav1.GetOptions), Update(obj), UpdateStatus(obj),
// Patch(name, pt, data, subresources...).
package typed

import (
	"encoding/json"
	"io"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog"
)

// A read-modify-write: the object read carries its resourceVersion, so the
// PUT is conditional.
func okGetThenUpdate(cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["owner"] = "operator"
	_, err = cs.CoreV1().ConfigMaps(ns).Update(cm)
	return err
}

// A ConfigMap built from scratch and PUT over the live one.
func badUpdateOfBuiltConfigMap(cs kubernetes.Interface, ns, name string) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Data:       map[string]string{"owner": "operator"},
	}
	_, err := cs.CoreV1().ConfigMaps(ns).Update(cm) // want "^unconditional-update: "
	return err
}

// The resourceVersion of the live object, copied into the built one, makes
// the PUT conditional.
func okUpdateWithCopiedResourceVersion(cs kubernetes.Interface, ns, name string) error {
	existing, err := cs.CoreV1().ConfigMaps(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	desired := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Data:       map[string]string{"owner": "operator"},
	}
	desired.ResourceVersion = existing.ResourceVersion
	_, err = cs.CoreV1().ConfigMaps(ns).Update(desired)
	return err
}

// A read whose resourceVersion is cleared before the PUT.
func badUpdateAfterClearingResourceVersion(cs kubernetes.Interface, ns, name string) error {
	svc, err := cs.CoreV1().Services(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.ResourceVersion = ""
	svc.Labels = map[string]string{"owner": "operator"}
	_, err = cs.CoreV1().Services(ns).Update(svc) // want "^unconditional-update: "
	return err
}

// UpdateStatus of a built Service replaces the status other controllers wrote.
func badUpdateStatusOfBuiltService(cs kubernetes.Interface, ns, name, ip string) error {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: ip}}
	_, err := cs.CoreV1().Services(ns).UpdateStatus(svc) // want "^unconditional-update: "
	return err
}

// UpdateStatus of the Service read.
func okUpdateStatusOfReadService(cs kubernetes.Interface, ns, name, ip string) error {
	svc, err := cs.CoreV1().Services(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: ip}}
	_, err = cs.CoreV1().Services(ns).UpdateStatus(svc)
	return err
}

// Inside the retry, the Update resends the Pod read once before it.
func badStaleRetry(cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pod.Labels["revision"] = "2"
		_, err := cs.CoreV1().Pods(ns).Update(pod) // want "^stale-retry: "
		return err
	})
}

// The retry re-reads the Pod each time.
func okFreshRetry(cs kubernetes.Interface, ns, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pod, err := cs.CoreV1().Pods(ns).Get(name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		pod.Labels["revision"] = "2"
		_, err = cs.CoreV1().Pods(ns).Update(pod)
		return err
	})
}

// A conflict swallowed as success: the change is lost and no one retries.
func badConflictSwallowed(cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	pod.Labels["revision"] = "2"
	if _, err := cs.CoreV1().Pods(ns).Update(pod); err != nil { // want "^missing-retry: "
		if apierrors.IsConflict(err) {
			return nil
		}
		return err
	}
	return nil
}

// The conflict is returned to the caller, whose work queue retries.
func okConflictReturned(cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	pod.Labels["revision"] = "2"
	if _, err := cs.CoreV1().Pods(ns).Update(pod); err != nil {
		klog.Errorf("updating pod %s: %v", name, err)
		return err
	}
	return nil
}

// A read from the watch cache (ResourceVersion "0") feeds the PUT.
func badStaleRead(cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(name, metav1.GetOptions{ResourceVersion: "0"}) // want "^stale-read: "
	if err != nil {
		return err
	}
	cm.Data = map[string]string{"owner": "operator"}
	_, err = cs.CoreV1().ConfigMaps(ns).Update(cm)
	return err
}

// A strategic merge patch of a finalizer list computed from the Pod read:
// it replaces the whole list without a precondition.
func badPatchOfFinalizersFromRead(cs kubernetes.Interface, ns, name string) error {
	pod, err := cs.CoreV1().Pods(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	before, err := json.Marshal(pod)
	if err != nil {
		return err
	}
	pod.Finalizers = append(pod.Finalizers, "example.com/cleanup")
	after, err := json.Marshal(pod)
	if err != nil {
		return err
	}
	data, err := strategicpatch.CreateTwoWayMergePatch(before, after, corev1.Pod{})
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Pods(ns).Patch(name, types.MergePatchType, data) // want "^unconditional-patch: "
	return err
}

// A blind patch of one constant label is not a read-modify-write.
func okConstantLabelPatch(cs kubernetes.Interface, ns, name string) error {
	_, err := cs.CoreV1().Pods(ns).Patch(name, types.MergePatchType, []byte(`{"metadata":{"labels":{"owner":"operator"}}}`))
	return err
}

// A ConfigMap decoded from a manifest carries no resourceVersion: the PUT
// overwrites the live object.
func badUpdateOfDecodedManifest(cs kubernetes.Interface, manifest io.Reader) error {
	var cm corev1.ConfigMap
	if err := yaml.NewYAMLOrJSONDecoder(manifest, 4096).Decode(&cm); err != nil {
		return err
	}
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(&cm) // want "^unconditional-update: "
	return err
}

// The decoded manifest takes the live resourceVersion before the PUT.
func okUpdateOfDecodedManifestWithLiveResourceVersion(cs kubernetes.Interface, manifest io.Reader) error {
	var cm corev1.ConfigMap
	if err := yaml.NewYAMLOrJSONDecoder(manifest, 4096).Decode(&cm); err != nil {
		return err
	}
	live, err := cs.CoreV1().ConfigMaps(cm.Namespace).Get(cm.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	cm.ResourceVersion = live.ResourceVersion
	_, err = cs.CoreV1().ConfigMaps(cm.Namespace).Update(&cm)
	return err
}

// The functions above are run by the controller's workers.
var _ = []interface{}{badConflictSwallowed, badPatchOfFinalizersFromRead, badStaleRead, badStaleRetry, badUpdateAfterClearingResourceVersion, badUpdateOfBuiltConfigMap, badUpdateOfDecodedManifest, badUpdateStatusOfBuiltService}

// The functions above are run by the program's workers.
var _ = []interface{}{okConflictReturned, okConstantLabelPatch, okFreshRetry, okGetThenUpdate, okUpdateOfDecodedManifestWithLiveResourceVersion, okUpdateStatusOfReadService, okUpdateWithCopiedResourceVersion}
