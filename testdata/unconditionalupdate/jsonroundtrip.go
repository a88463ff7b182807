package unconditionalupdate

import (
	"context"
	"encoding/json"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	sigsyaml "sigs.k8s.io/yaml"
)

// An installer's dynamic writer PUTs the object a JSON or YAML document
// describes; its callers hand it documents of two kinds.
type documentWriter struct {
	dc dynamic.Interface
}

var sccGVR = schema.GroupVersionResource{Group: "security.openshift.io", Version: "v1", Resource: "securitycontextconstraints"}

// updateByDocument decodes the document through a helper and PUTs it.
func (d *documentWriter) updateByDocument(ctx context.Context, gvr schema.GroupVersionResource, doc string) error {
	u, err := documentObject(doc)
	if err != nil {
		return err
	}
	_, err = d.dc.Resource(gvr).Update(ctx, u, metav1.UpdateOptions{})
	return err
}

// documentObject converts YAML to JSON and decodes it into an Unstructured.
func documentObject(doc string) (*unstructured.Unstructured, error) {
	data, err := sigsyaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return nil, err
	}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return &u, nil
}

// okRemoveUser reads the object, drops a user, and hands the writer its
// encoding: the document carries the resourceVersion read, so the PUT is
// conditional.
func (d *documentWriter) okRemoveUser(ctx context.Context, name, user string) error {
	scc, err := d.dc.Resource(sccGVR).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	users, _, err := unstructured.NestedStringSlice(scc.Object, "users")
	if err != nil {
		return err
	}
	users = slices.DeleteFunc(users, func(u string) bool { return u == user })
	if err := unstructured.SetNestedStringSlice(scc.Object, users, "users"); err != nil {
		return err
	}
	data, err := scc.MarshalJSON()
	if err != nil {
		return err
	}
	return d.updateByDocument(ctx, sccGVR, string(data))
}

const restrictedSCC = `apiVersion: security.openshift.io/v1
kind: SecurityContextConstraints
metadata:
  name: example-restricted
users: []
`

// replaceByDocument decodes a document itself and PUTs it; its only caller
// gives it a manifest, which has no resourceVersion.
func (d *documentWriter) replaceByDocument(ctx context.Context, gvr schema.GroupVersionResource, doc string) error {
	data, err := sigsyaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return err
	}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(data); err != nil {
		return err
	}
	_, err = d.dc.Resource(gvr).Update(ctx, &u, metav1.UpdateOptions{}) // want "^unconditional-update: Update writes u, which is decoded from a manifest without a resourceVersion"
	return err
}

func (d *documentWriter) badResetSCC(ctx context.Context) error {
	return d.replaceByDocument(ctx, sccGVR, restrictedSCC)
}

// pruneDocument drops the top-level fields of a document that the
// requested one does not set, but its metadata, and returns what is left.
func pruneDocument(current, requested []byte) ([]byte, error) {
	var cur, req map[string]any
	if err := json.Unmarshal(current, &cur); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(requested, &req); err != nil {
		return nil, err
	}
	for k := range cur {
		if _, ok := req[k]; !ok && k != "metadata" {
			delete(cur, k)
		}
	}
	return json.Marshal(cur)
}

// A service syncer merges the requested service into the one it reads and
// prunes the result as documents, then decodes and PUTs it.
type serviceSyncer struct {
	cs kubernetes.Interface
}

// okSyncService: the pruned document is made from the encoding of the
// service read, so it keeps that resourceVersion and the PUT is
// conditional.
func (s *serviceSyncer) okSyncService(ctx context.Context, requested *corev1.Service) error {
	current, err := s.cs.CoreV1().Services(requested.Namespace).Get(ctx, requested.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	merged := current.DeepCopy()
	merged.Spec.Ports = requested.Spec.Ports
	mergedJSON, err := json.Marshal(merged)
	if err != nil {
		return err
	}
	prunedJSON, err := pruneDocument(mergedJSON, []byte(`{"spec":{}}`))
	if err != nil {
		return err
	}
	pruned := &corev1.Service{}
	if err := json.Unmarshal(prunedJSON, pruned); err != nil {
		return err
	}
	_, err = s.cs.CoreV1().Services(requested.Namespace).Update(ctx, pruned, metav1.UpdateOptions{})
	return err
}

const serviceManifest = `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default"},"spec":{"ports":[{"port":80}]}}`

// badResetService prunes two manifests: the document has no
// resourceVersion, and the PUT overwrites whatever the service holds.
func (s *serviceSyncer) badResetService(ctx context.Context) error {
	prunedJSON, err := pruneDocument([]byte(serviceManifest), []byte(`{"spec":{}}`))
	if err != nil {
		return err
	}
	pruned := &corev1.Service{}
	if err := json.Unmarshal(prunedJSON, pruned); err != nil {
		return err
	}
	_, err = s.cs.CoreV1().Services("default").Update(ctx, pruned, metav1.UpdateOptions{}) // want "^unconditional-update: Update writes pruned, which is decoded from a manifest without a resourceVersion"
	return err
}

// The functions above are run by the installer.
var _ = []any{(*documentWriter).okRemoveUser, (*documentWriter).badResetSCC, (*serviceSyncer).okSyncService, (*serviceSyncer).badResetService}
