// Hand-written imitation of applyconfiguration-gen output for the Widget custom
// resource (client-go v0.37.2 generation). Part of the lostupdate test corpus.

package applyconfigurations

import (
	runtime "k8s.io/apimachinery/pkg/runtime"
	schema "k8s.io/apimachinery/pkg/runtime/schema"
	managedfields "k8s.io/apimachinery/pkg/util/managedfields"
	v1 "lostupdate.test/crd/apis/widgets/v1"
	internal "lostupdate.test/crd/applyconfigurations/internal"
	widgetsv1 "lostupdate.test/crd/applyconfigurations/widgets/v1"
)

// ForKind returns an apply configuration type for the given GroupVersionKind, or nil if no
// apply configuration type exists for the given GroupVersionKind.
func ForKind(kind schema.GroupVersionKind) interface{} {
	switch kind {
	// Group=example.com, Version=v1
	case v1.SchemeGroupVersion.WithKind("Widget"):
		return &widgetsv1.WidgetApplyConfiguration{}
	case v1.SchemeGroupVersion.WithKind("WidgetSpec"):
		return &widgetsv1.WidgetSpecApplyConfiguration{}
	case v1.SchemeGroupVersion.WithKind("WidgetStatus"):
		return &widgetsv1.WidgetStatusApplyConfiguration{}

	}
	return nil
}

func NewTypeConverter(scheme *runtime.Scheme) managedfields.TypeConverter {
	return managedfields.NewSchemeTypeConverter(scheme, internal.Parser())
}
