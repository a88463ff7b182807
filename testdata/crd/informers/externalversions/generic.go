// Hand-written imitation of informer-gen output for the Widget custom resource
// (client-go v0.37.2 generation). Part of the lostupdate test corpus; nothing
// here is generated.

package externalversions

import (
	fmt "fmt"

	schema "k8s.io/apimachinery/pkg/runtime/schema"
	cache "k8s.io/client-go/tools/cache"
	v1 "lostupdate.test/crd/apis/widgets/v1"
)

// GenericInformer is type of SharedIndexInformer which will locate and delegate to other
// sharedInformers based on type
type GenericInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() cache.GenericLister
}

type genericInformer struct {
	informer cache.SharedIndexInformer
	resource schema.GroupResource
}

// Informer returns the SharedIndexInformer.
func (f *genericInformer) Informer() cache.SharedIndexInformer {
	return f.informer
}

// Lister returns the GenericLister.
func (f *genericInformer) Lister() cache.GenericLister {
	return cache.NewGenericLister(f.Informer().GetIndexer(), f.resource)
}

// ForResource gives generic access to a shared informer of the matching type
// TODO extend this to unknown resources with a client pool
func (f *sharedInformerFactory) ForResource(resource schema.GroupVersionResource) (GenericInformer, error) {
	switch resource {
	// Group=example.com, Version=v1
	case v1.SchemeGroupVersion.WithResource("widgets"):
		return &genericInformer{resource: resource.GroupResource(), informer: f.Widgets().V1().Widgets().Informer()}, nil

	}

	return nil, fmt.Errorf("no informer found for %v", resource)
}
