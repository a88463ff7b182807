package unconditionalupdate

import (
	"context"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
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

// The functions above are run by the installer.
var _ = []any{(*documentWriter).okRemoveUser, (*documentWriter).badResetSCC}
