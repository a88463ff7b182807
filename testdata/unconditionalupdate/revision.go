package unconditionalupdate

import (
	"bytes"
	"context"
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes"
)

// A rollback applies the spec a ControllerRevision keeps to the encoding of
// the Deployment read (written into a buffer by a codec, or by a JSON
// encoder) and decodes the result: the object keeps the metadata read, its
// resourceVersion too, so the PUT is conditional.
type rollbacker struct {
	clientset kubernetes.Interface
}

func applyRevision(d *appsv1.Deployment, rev *appsv1.ControllerRevision) (*appsv1.Deployment, error) {
	buf := &bytes.Buffer{}
	if err := unstructured.UnstructuredJSONScheme.Encode(d, buf); err != nil {
		return nil, err
	}
	patched, err := strategicpatch.StrategicMergePatch(buf.Bytes(), rev.Data.Raw, d)
	if err != nil {
		return nil, err
	}
	restored := &appsv1.Deployment{}
	if err := json.Unmarshal(patched, restored); err != nil {
		return nil, err
	}
	return restored, nil
}

func (r *rollbacker) rollback(ctx context.Context, ns, name string, rev *appsv1.ControllerRevision) error {
	d, err := r.clientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	restored, err := applyRevision(d, rev)
	if err != nil {
		return err
	}
	_, err = r.clientset.AppsV1().Deployments(ns).Update(ctx, restored, metav1.UpdateOptions{})
	return err
}

func (r *rollbacker) rollbackByEncoder(ctx context.Context, ns, name string, rev *appsv1.ControllerRevision) error {
	d, err := r.clientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(d); err != nil {
		return err
	}
	patched, err := strategicpatch.StrategicMergePatch(buf.Bytes(), rev.Data.Raw, d)
	if err != nil {
		return err
	}
	restored := &appsv1.Deployment{}
	if err := json.Unmarshal(patched, restored); err != nil {
		return err
	}
	_, err = r.clientset.AppsV1().Deployments(ns).Update(ctx, restored, metav1.UpdateOptions{})
	return err
}

// The positive control: the revision applied to an encoding of a template
// built here, which has no resourceVersion.
func (r *rollbacker) restoreTemplate(ctx context.Context, ns, name string, rev *appsv1.ControllerRevision) error {
	tmpl := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	buf := &bytes.Buffer{}
	if err := unstructured.UnstructuredJSONScheme.Encode(tmpl, buf); err != nil {
		return err
	}
	patched, err := strategicpatch.StrategicMergePatch(buf.Bytes(), rev.Data.Raw, tmpl)
	if err != nil {
		return err
	}
	restored := &appsv1.Deployment{}
	if err := json.Unmarshal(patched, restored); err != nil {
		return err
	}
	_, err = r.clientset.AppsV1().Deployments(ns).Update(ctx, restored, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

var _ = []any{(*rollbacker).rollback, (*rollbacker).rollbackByEncoder, (*rollbacker).restoreTemplate}
