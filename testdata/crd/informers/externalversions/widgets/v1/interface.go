// Hand-written imitation of informer-gen output for the Widget custom resource
// (client-go v0.37.2 generation). Part of the lostupdate test corpus; nothing
// here is generated.

package v1

import (
	internalinterfaces "lostupdate.test/crd/informers/externalversions/internalinterfaces"
)

// Interface provides access to all the informers in this group version.
type Interface interface {
	// Widgets returns a WidgetInformer.
	Widgets() TypedWidgetInformer
}

type version struct {
	factory          internalinterfaces.SharedInformerFactory
	namespace        string
	tweakListOptions internalinterfaces.TweakListOptionsFunc
}

// New returns a new Interface.
func New(f internalinterfaces.SharedInformerFactory, namespace string, tweakListOptions internalinterfaces.TweakListOptionsFunc) Interface {
	return &version{factory: f, namespace: namespace, tweakListOptions: tweakListOptions}
}

// Widgets returns a TypedWidgetInformer.
func (v *version) Widgets() TypedWidgetInformer {
	return &widgetInformer{factory: v.factory, namespace: v.namespace, tweakListOptions: v.tweakListOptions}
}
