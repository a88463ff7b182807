package unconditionalupdate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/yaml"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var (
	certificateGVR = schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "certificates"}
	ingressGVR     = schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "ingresses"}
	databaseGVR    = schema.GroupVersionResource{Group: "db.example.com", Version: "v1alpha1", Resource: "databases"}
)

// A generic operator writes a CR it assembled as a map: the unstructured object has no metadata.resourceVersion.
func badDynamicUpdateOfBuiltUnstructured(ctx context.Context, dc dynamic.Interface, ns, host string) error {
	cert := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "cert-manager.io/v1",
		"kind":       "Certificate",
		"metadata": map[string]interface{}{
			"name":      host,
			"namespace": ns,
		},
		"spec": map[string]interface{}{
			"secretName": host + "-tls",
			"dnsNames":   []interface{}{host},
		},
	}}
	_, err := dc.Resource(certificateGVR).Namespace(ns).Update(ctx, cert, metav1.UpdateOptions{}) // want "^unconditional-update: .*cert"
	return err
}

// SetResourceVersion("") on a read unstructured object clears the precondition before the PUT.
func badDynamicUpdateAfterClearingResourceVersion(ctx context.Context, dc dynamic.Interface, ns, name, class string) error {
	ing, err := dc.Resource(ingressGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(ing.Object, class, "spec", "ingressClassName"); err != nil {
		return err
	}
	ing.SetResourceVersion("")
	_, err = dc.Resource(ingressGVR).Namespace(ns).Update(ctx, ing, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// A YAML manifest decoded into an Unstructured and PUT as is, the way simple "kubectl replace" clones do.
func badDynamicReplaceFromYAML(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, manifest []byte) error {
	obj := &unstructured.Unstructured{}
	dec := yaml.NewDecodingSerializer(unstructured.UnstructuredJSONScheme)
	if _, _, err := dec.Decode(manifest, nil, obj); err != nil {
		return err
	}
	_, err := dc.Resource(gvr).Namespace(obj.GetNamespace()).Update(ctx, obj, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// A status writer builds the status of a CR from scratch with the unstructured setters and PUTs it to /status.
func badDynamicUpdateStatusOfBuiltObject(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	db := &unstructured.Unstructured{}
	db.SetAPIVersion("db.example.com/v1alpha1")
	db.SetKind("Database")
	db.SetNamespace(ns)
	db.SetName(name)
	if err := unstructured.SetNestedField(db.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	_, err := dc.Resource(databaseGVR).Namespace(ns).UpdateStatus(ctx, db, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// Dynamic read-modify-write with the nested-field helpers keeps the read's resourceVersion.
func okDynamicGetSetNestedFieldUpdate(ctx context.Context, dc dynamic.Interface, ns, name string, replicas int64) error {
	db, err := dc.Resource(databaseGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(db.Object, replicas, "spec", "replicas"); err != nil {
		return err
	}
	_, err = dc.Resource(databaseGVR).Namespace(ns).Update(ctx, db, metav1.UpdateOptions{})
	return err
}

// A built unstructured object takes the live resourceVersion through the accessors before the PUT.
func okDynamicSetResourceVersionFromExisting(ctx context.Context, dc dynamic.Interface, ns, host string) error {
	desired := &unstructured.Unstructured{}
	desired.SetAPIVersion("cert-manager.io/v1")
	desired.SetKind("Certificate")
	desired.SetNamespace(ns)
	desired.SetName(host)
	if err := unstructured.SetNestedStringSlice(desired.Object, []string{host}, "spec", "dnsNames"); err != nil {
		return err
	}
	existing, err := dc.Resource(certificateGVR).Namespace(ns).Get(ctx, host, metav1.GetOptions{})
	if err != nil {
		return err
	}
	desired.SetResourceVersion(existing.GetResourceVersion())
	_, err = dc.Resource(certificateGVR).Namespace(ns).Update(ctx, desired, metav1.UpdateOptions{})
	return err
}

// Marking every listed CR as observed: each list item carries its resourceVersion.
func okDynamicListItemsUpdateStatus(ctx context.Context, dc dynamic.Interface, ns string) error {
	list, err := dc.Resource(databaseGVR).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range list.Items {
		db := &list.Items[i]
		if err := unstructured.SetNestedField(db.Object, db.GetGeneration(), "status", "observedGeneration"); err != nil {
			return err
		}
		if _, err := dc.Resource(databaseGVR).Namespace(ns).UpdateStatus(ctx, db, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// A DeepCopy of a dynamic read is a read too.
func okDynamicDeepCopyUpdate(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	live, err := dc.Resource(ingressGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	updated := live.DeepCopy()
	annotations := updated.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations["example.com/tls-checked"] = "true"
	updated.SetAnnotations(annotations)
	_, err = dc.Resource(ingressGVR).Namespace(ns).Update(ctx, updated, metav1.UpdateOptions{})
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badDynamicReplaceFromYAML, badDynamicUpdateAfterClearingResourceVersion, badDynamicUpdateOfBuiltUnstructured, badDynamicUpdateStatusOfBuiltObject}

// The functions above are run by the program's workers.
var _ = []any{okDynamicDeepCopyUpdate, okDynamicGetSetNestedFieldUpdate, okDynamicListItemsUpdateStatus, okDynamicSetResourceVersionFromExisting}

// A typed object read from the API server and written through the dynamic
// client: its content, converted to a map, carries the resourceVersion read.
func okDynamicUpdateStatusOfConvertedRead(ctx context.Context, dc dynamic.Interface, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	cm.Data["synced"] = "true"
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cm)
	if err != nil {
		return err
	}
	var u unstructured.Unstructured
	u.SetUnstructuredContent(content)
	_, err = dc.Resource(configMapGVR).Namespace(key.Namespace).Update(ctx, &u, metav1.UpdateOptions{})
	return err
}

// The control: the typed object converted is built, not read.
func badDynamicUpdateOfConvertedBuilt(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: map[string]string{"synced": "true"}}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cm)
	if err != nil {
		return err
	}
	var u unstructured.Unstructured
	u.SetUnstructuredContent(content)
	_, err = dc.Resource(configMapGVR).Namespace(ns).Update(ctx, &u, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

var configMapGVR = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

var _ = []any{okDynamicUpdateStatusOfConvertedRead, badDynamicUpdateOfConvertedBuilt}
