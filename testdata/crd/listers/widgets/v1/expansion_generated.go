// Hand-written imitation of lister-gen output for the Widget custom resource
// (client-go v0.37.2 generation: generic listers.ResourceIndexer). Part of the
// lostupdate test corpus; nothing here is generated.

package v1

// WidgetListerExpansion allows custom methods to be added to
// WidgetLister.
type WidgetListerExpansion interface{}

// WidgetNamespaceListerExpansion allows custom methods to be added to
// WidgetNamespaceLister.
type WidgetNamespaceListerExpansion interface{}
