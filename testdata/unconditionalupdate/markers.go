package unconditionalupdate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NamespaceMarker annotates the namespaces a slice allows. It keeps each
// namespace a List gave in a marker struct, by value, and annotates the
// marker's copy: the copy carries the resourceVersion the List read.
type NamespaceMarker struct {
	client.Client
	allowed []string
}

type nsMarker struct {
	ns     corev1.Namespace
	marked bool
}

func (r *NamespaceMarker) MarkAllowed(ctx context.Context) error {
	var list corev1.NamespaceList
	if err := r.List(ctx, &list, client.HasLabels{"example.com/allowed"}); err != nil {
		return err
	}
	byName := map[string]*nsMarker{}
	for _, ns := range list.Items {
		byName[ns.Name] = &nsMarker{ns: ns}
	}
	for _, name := range r.allowed {
		if v, ok := byName[name]; ok {
			v.marked = true
			if err := r.annotate(ctx, &v.ns); err != nil {
				return err
			}
		}
	}
	return nil
}

// MarkDefaults is the positive control: its markers hold namespaces built
// here, with no resourceVersion.
func (r *NamespaceMarker) MarkDefaults(ctx context.Context) error {
	byName := map[string]*nsMarker{}
	for _, name := range r.allowed {
		m := &nsMarker{}
		m.ns.Name = name
		byName[name] = m
	}
	for _, name := range r.allowed {
		if v, ok := byName[name]; ok {
			if err := r.annotateDefault(ctx, &v.ns); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *NamespaceMarker) annotate(ctx context.Context, ns *corev1.Namespace) error {
	if ns.Annotations == nil {
		ns.Annotations = map[string]string{}
	}
	ns.Annotations["example.com/slice"] = "allowed"
	return r.Update(ctx, ns)
}

func (r *NamespaceMarker) annotateDefault(ctx context.Context, ns *corev1.Namespace) error {
	ns.Annotations = map[string]string{"example.com/slice": "default"}
	return r.Update(ctx, ns) // want `^unconditional-update: Update \(in annotateDefault\) writes ns`
}
