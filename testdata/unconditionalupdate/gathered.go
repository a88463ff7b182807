package unconditionalupdate

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// matchingWidgets returns the widgets of a List that carry every label of
// the selector, gathered into a list of its own, or an empty list when the
// selector is missing: the items it returns are those the List read.
func matchingWidgets(ctx context.Context, c client.Client, selector map[string]string) (widgetsv1.WidgetList, error) {
	if selector == nil {
		return widgetsv1.WidgetList{}, nil
	}
	var list widgetsv1.WidgetList
	err := c.List(ctx, &list, client.MatchingLabels(selector))
	var selected widgetsv1.WidgetList
	for _, w := range list.Items {
		if w.Spec.Image != "" {
			selected.Items = append(selected.Items, w)
		}
	}
	return selected, err
}

// Count records, on each matching widget, how many matched: each item is
// one the List read, and its status write carries its resourceVersion.
func (r *WidgetActivator) Count(ctx context.Context, selector map[string]string) error {
	matching, err := matchingWidgets(ctx, r.Client, selector)
	if err != nil {
		return err
	}
	for _, w := range matching.Items {
		w := w
		w.Status.Phase = "Matched"
		if err := r.Status().Update(ctx, &w); err != nil {
			return err
		}
	}
	return nil
}

// placeholderWidgets is the positive control's helper: the list it returns
// holds widgets it builds.
func placeholderWidgets(names []string) widgetsv1.WidgetList {
	var out widgetsv1.WidgetList
	for _, name := range names {
		out.Items = append(out.Items, widgetsv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name}})
	}
	return out
}

func (r *WidgetActivator) Placeholders(ctx context.Context, names []string) error {
	for _, w := range placeholderWidgets(names).Items {
		w := w
		w.Status.Phase = "Placeholder"
		if err := r.Status().Update(ctx, &w); err != nil { // want `^unconditional-update: Status\(\)\.Update writes w, which is built`
			return err
		}
	}
	return nil
}
