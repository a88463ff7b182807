package unconditionalupdate

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// WidgetActivator gathers the widgets of several namespaces into one list
// it allocates, then updates each: the items are those the Lists read, and
// carry their resourceVersions.
type WidgetActivator struct {
	client.Client
}

func (r *WidgetActivator) ActivateAll(ctx context.Context, namespaces []string) error {
	all := new(widgetsv1.WidgetList)
	for _, ns := range namespaces {
		var l widgetsv1.WidgetList
		if err := r.List(ctx, &l, client.InNamespace(ns)); err != nil {
			return err
		}
		all.Items = append(all.Items, l.Items...)
	}
	for _, w := range all.Items {
		w.Status.Phase = "Active"
		if err := r.Status().Update(ctx, &w); err != nil {
			return err
		}
	}
	return nil
}

// SeedAll is the positive control: the list it gathers holds widgets built
// here.
func (r *WidgetActivator) SeedAll(ctx context.Context, names []string) error {
	all := new(widgetsv1.WidgetList)
	for _, name := range names {
		all.Items = append(all.Items, widgetsv1.Widget{})
		all.Items[len(all.Items)-1].Name = name
	}
	for _, w := range all.Items {
		w.Status.Phase = "Seeded"
		if err := r.Status().Update(ctx, &w); err != nil { // want `^unconditional-update: Status\(\)\.Update writes w, which is built without a resourceVersion`
			return err
		}
	}
	return nil
}
