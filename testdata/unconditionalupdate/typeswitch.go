package unconditionalupdate

import (
	"context"
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// updateByKind reads the object, and copies the version it read
// into the desired one only for PodDisruptionBudgets, as
// percona-xtradb-cluster-operator's createOrUpdate does (less its
// create): other kinds are sent without one.
func updateByKind(ctx context.Context, c client.Client, obj client.Object) error {
	old := reflect.New(reflect.Indirect(reflect.ValueOf(obj)).Type()).Interface().(client.Object)
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), old); err != nil {
		return err
	}
	switch obj.(type) {
	case *policyv1.PodDisruptionBudget:
		obj.SetResourceVersion(old.GetResourceVersion())
	}
	return c.Update(ctx, obj)
}

// A PodDisruptionBudget gets the version read in the helper's type switch.
func okUpdatePDBThroughTypeSwitch(ctx context.Context, c client.Client, ns string) error {
	minAvailable := intstr.FromInt32(1)
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &minAvailable},
	}
	return updateByKind(ctx, c, pdb)
}

// A Deployment does not: it is sent as built.
func badUpdateDeploymentThroughTypeSwitch(ctx context.Context, c client.Client, ns string) error {
	dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "collector"}}
	return updateByKind(ctx, c, dep) // want "^unconditional-update: "
}

// The functions above are run by the controller's workers.
var _ = []any{badUpdateDeploymentThroughTypeSwitch}

// The functions above are run by the program's workers.
var _ = []any{okUpdatePDBThroughTypeSwitch}
