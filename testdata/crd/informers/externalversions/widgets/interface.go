// Hand-written imitation of informer-gen output for the Widget custom resource
// (client-go v0.37.2 generation). Part of the lostupdate test corpus; nothing
// here is generated.

package widgets

import (
	internalinterfaces "lostupdate.test/crd/informers/externalversions/internalinterfaces"
	v1 "lostupdate.test/crd/informers/externalversions/widgets/v1"
)

// Interface provides access to each of this group's versions.
type Interface interface {
	// V1 provides access to shared informers for resources in V1.
	V1() v1.Interface
}

type group struct {
	factory          internalinterfaces.SharedInformerFactory
	namespace        string
	tweakListOptions internalinterfaces.TweakListOptionsFunc
}

// New returns a new Interface.
func New(f internalinterfaces.SharedInformerFactory, namespace string, tweakListOptions internalinterfaces.TweakListOptionsFunc) Interface {
	return &group{factory: f, namespace: namespace, tweakListOptions: tweakListOptions}
}

// V1 returns a new v1.Interface.
func (g *group) V1() v1.Interface {
	return v1.New(g.factory, g.namespace, g.tweakListOptions)
}
