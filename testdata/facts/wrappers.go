package facts

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// CreateOrUpdateLabelled wraps controllerutil.CreateOrUpdate, which reads
// the object into obj before it runs the mutate function and writes it:
// the object it writes carries the resourceVersion it read.
func CreateOrUpdateLabelled(ctx context.Context, c client.Client, obj client.Object, mutate func() error) (controllerutil.OperationResult, error) { // want CreateOrUpdateLabelled:"reads into #2; writes #2 with update returning its error"
	labelled := func() error {
		if err := mutate(); err != nil {
			return err
		}
		obj.SetLabels(map[string]string{"example.com/managed": "true"})
		return nil
	}
	return controllerutil.CreateOrUpdate(ctx, c, obj, labelled)
}
