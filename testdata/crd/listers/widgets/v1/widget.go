// Hand-written imitation of lister-gen output for the Widget custom resource
// (client-go v0.37.2 generation: generic listers.ResourceIndexer). Part of the
// lostupdate test corpus; nothing here is generated.

package v1

import (
	labels "k8s.io/apimachinery/pkg/labels"
	listers "k8s.io/client-go/listers"
	cache "k8s.io/client-go/tools/cache"
	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// WidgetLister helps list Widgets.
// All objects returned here must be treated as read-only.
type WidgetLister interface {
	// List lists all Widgets in the indexer.
	// Objects returned here must be treated as read-only.
	List(selector labels.Selector) (ret []*widgetsv1.Widget, err error)
	// Widgets returns an object that can list and get Widgets.
	Widgets(namespace string) WidgetNamespaceLister
	WidgetListerExpansion
}

// widgetLister implements the WidgetLister interface.
type widgetLister struct {
	listers.ResourceIndexer[*widgetsv1.Widget]
}

// NewWidgetLister returns a new WidgetLister.
func NewWidgetLister(indexer cache.Indexer) WidgetLister {
	return &widgetLister{listers.New[*widgetsv1.Widget](indexer, widgetsv1.Resource("widget"))}
}

// Widgets returns an object that can list and get Widgets.
func (s *widgetLister) Widgets(namespace string) WidgetNamespaceLister {
	return widgetNamespaceLister{listers.NewNamespaced[*widgetsv1.Widget](s.ResourceIndexer, namespace)}
}

// WidgetNamespaceLister helps list and get Widgets.
// All objects returned here must be treated as read-only.
type WidgetNamespaceLister interface {
	// List lists all Widgets in the indexer for a given namespace.
	// Objects returned here must be treated as read-only.
	List(selector labels.Selector) (ret []*widgetsv1.Widget, err error)
	// Get retrieves the Widget from the indexer for a given namespace and name.
	// Objects returned here must be treated as read-only.
	Get(name string) (*widgetsv1.Widget, error)
	WidgetNamespaceListerExpansion
}

// widgetNamespaceLister implements the WidgetNamespaceLister
// interface.
type widgetNamespaceLister struct {
	listers.ResourceIndexer[*widgetsv1.Widget]
}
