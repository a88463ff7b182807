package unconditionalupdate

import (
	"context"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A desired ConfigMap is sent as a dry run first, as perses-operator does
// "to fill out fields that are also returned via the k8s api": the server
// persists nothing, and answers with the object as it would store it, the
// live resourceVersion included, which controller-runtime copies into cm.
// The real Update then carries that version: a concurrent change gets a
// 409.
type dryRunSyncer struct {
	client.Client
	cs kubernetes.Interface
}

func desiredConfigMap(ns string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "config", Namespace: ns},
		Data:       map[string]string{"mode": "desired"},
	}
}

func (s *dryRunSyncer) syncAfterDryRun(ctx context.Context, found *corev1.ConfigMap) error {
	cm := desiredConfigMap(found.Namespace)
	if err := s.Update(ctx, cm, client.DryRunAll); err != nil {
		return err
	}
	if reflect.DeepEqual(found.Data, cm.Data) {
		return nil
	}
	return s.Update(ctx, cm)
}

// The positive control: without the dry run, the Update sends the built
// object with no resourceVersion.
func (s *dryRunSyncer) syncBlind(ctx context.Context, found *corev1.ConfigMap) error {
	cm := desiredConfigMap(found.Namespace)
	if reflect.DeepEqual(found.Data, cm.Data) {
		return nil
	}
	return s.Update(ctx, cm) // want `^unconditional-update: Update writes cm, which is built`
}

// A typed client's dry run validates the built object and persists
// nothing; the object it answers is dropped here.
func (s *dryRunSyncer) validate(ctx context.Context, ns string) error {
	cm := desiredConfigMap(ns)
	_, err := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
	return err
}

// The control of that one: the same Update, persisted.
func (s *dryRunSyncer) store(ctx context.Context, ns string) error {
	cm := desiredConfigMap(ns)
	_, err := s.cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // want `^unconditional-update: Update writes cm, which is built`
	return err
}

var _ = []any{(*dryRunSyncer).syncAfterDryRun, (*dryRunSyncer).syncBlind, (*dryRunSyncer).validate, (*dryRunSyncer).store}
