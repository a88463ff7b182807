// Hand-written imitation of informer-gen output for the Widget custom resource
// (client-go v0.37.2 generation). Part of the lostupdate test corpus; nothing
// here is generated.

package v1

import (
	context "context"
	time "time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtime "k8s.io/apimachinery/pkg/runtime"
	schema "k8s.io/apimachinery/pkg/runtime/schema"
	watch "k8s.io/apimachinery/pkg/watch"
	cache "k8s.io/client-go/tools/cache"
	apiswidgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	versioned "lostupdate.test/crd/clientset/versioned"
	internalinterfaces "lostupdate.test/crd/informers/externalversions/internalinterfaces"
	widgetsv1 "lostupdate.test/crd/listers/widgets/v1"
)

// WidgetInformer provides access to a shared informer and lister for
// Widgets. Prefer using the type-safe variant (see [TypedWidgetInformer]).
type WidgetInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() widgetsv1.WidgetLister
}

// TypedWidgetInformer provides access to a shared informer and lister for
// Widgets, including the type-safe TypedInformer variant.
// It is a superset of WidgetInformer.
type TypedWidgetInformer interface {
	Informer() cache.SharedIndexInformer
	TypedInformer() WidgetIndexInformer
	Lister() widgetsv1.WidgetLister
}

// WidgetIndexInformer is a wrapper around the underlying [cache.SharedIndexInformer]
// with type-safe variants of several methods.
type WidgetIndexInformer cache.TypedSharedIndexInformer[*apiswidgetsv1.Widget]

// WidgetHandlerFuncs is a specialization of [cache.TypedResourceEventHandlerFuncs] for Widget.
type WidgetHandlerFuncs = cache.TypedResourceEventHandlerFuncs[*apiswidgetsv1.Widget]

// WidgetDetailedHandlerFuncs is a specialization of [cache.TypedResourceEventHandlerDetailedFuncs] for Widget.
type WidgetDetailedHandlerFuncs = cache.TypedResourceEventHandlerDetailedFuncs[*apiswidgetsv1.Widget]

// WidgetFilteringHandler is a specialization of [cache.TypedFilteringResourceEventHandler] for Widget.
type WidgetFilteringHandler = cache.TypedFilteringResourceEventHandler[*apiswidgetsv1.Widget]

// WidgetIndexers is a specialization of [cache.TypedIndexers] for Widget.
type WidgetIndexers = cache.TypedIndexers[*apiswidgetsv1.Widget]

// DeletedWidget is a specialization of [cache.DeletedObject] for Widget.
type DeletedWidget = cache.DeletedObject[*apiswidgetsv1.Widget]

type widgetInformer struct {
	factory          internalinterfaces.SharedInformerFactory
	tweakListOptions internalinterfaces.TweakListOptionsFunc
	namespace        string
}

// NewWidgetInformer constructs a new informer for Widget type.
// Always prefer using an informer factory to get a shared informer instead of getting an independent
// one. This reduces memory footprint and number of connections to the server.
// If you really need an independent one, prefer using the type-safe variant (see [NewTypedWidgetInformer]).
func NewWidgetInformer(client versioned.Interface, namespace string, resyncPeriod time.Duration, indexers cache.Indexers) cache.SharedIndexInformer {
	return NewWidgetInformerWithOptions(client, namespace, internalinterfaces.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: indexers})
}

// NewTypedWidgetInformer constructs a new informer for Widget type.
// Always prefer using an informer factory to get a shared informer instead of getting an independent
// one. This reduces memory footprint and number of connections to the server.
func NewTypedWidgetInformer(client versioned.Interface, namespace string, resyncPeriod time.Duration, indexers WidgetIndexers) WidgetIndexInformer {
	return NewTypedWidgetInformerWithOptions(client, namespace, internalinterfaces.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: cache.TypedIndexersToIndexers(indexers)})
}

// NewFilteredWidgetInformer constructs a new informer for Widget type.
// Always prefer using an informer factory to get a shared informer instead of getting an independent
// one. This reduces memory footprint and number of connections to the server.
// If you really need an independent one, prefer using the type-safe variant (see [NewTypedFilteredWidgetInformer]).
func NewFilteredWidgetInformer(client versioned.Interface, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions internalinterfaces.TweakListOptionsFunc) cache.SharedIndexInformer {
	return NewTypedWidgetInformerWithOptions(client, namespace, internalinterfaces.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: indexers, TweakListOptions: tweakListOptions})
}

// NewTypedFilteredWidgetInformer constructs a new informer for Widget type.
// Always prefer using an informer factory to get a shared informer instead of getting an independent
// one. This reduces memory footprint and number of connections to the server.
func NewTypedFilteredWidgetInformer(client versioned.Interface, namespace string, resyncPeriod time.Duration, indexers WidgetIndexers, tweakListOptions internalinterfaces.TweakListOptionsFunc) WidgetIndexInformer {
	return NewTypedWidgetInformerWithOptions(client, namespace, internalinterfaces.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: cache.TypedIndexersToIndexers(indexers), TweakListOptions: tweakListOptions})
}

// NewWidgetInformerWithOptions constructs a new informer for Widget type with additional options.
// Always prefer using an informer factory to get a shared informer instead of getting an independent
// one. This reduces memory footprint and number of connections to the server.
// If you really need an independent one, prefer using the type-safe variant (see [NewTypedWidgetInformerWithOptions]).
func NewWidgetInformerWithOptions(client versioned.Interface, namespace string, options internalinterfaces.InformerOptions) cache.SharedIndexInformer {
	return NewTypedWidgetInformerWithOptions(client, namespace, options)
}

// NewTypedWidgetInformerWithOptions constructs a new informer for Widget type with additional options.
// Always prefer using an informer factory to get a shared informer instead of getting an independent
// one. This reduces memory footprint and number of connections to the server.
func NewTypedWidgetInformerWithOptions(client versioned.Interface, namespace string, options internalinterfaces.InformerOptions) WidgetIndexInformer {
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	identifier := options.InformerName.WithResource(gvr)
	tweakListOptions := options.TweakListOptions
	return cache.NewTypedSharedIndexInformer[*apiswidgetsv1.Widget](cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
			ListFunc: func(opts metav1.ListOptions) (runtime.Object, error) {
				if tweakListOptions != nil {
					tweakListOptions(&opts)
				}
				return client.WidgetsV1().Widgets(namespace).List(context.Background(), opts)
			},
			WatchFunc: func(opts metav1.ListOptions) (watch.Interface, error) {
				if tweakListOptions != nil {
					tweakListOptions(&opts)
				}
				return client.WidgetsV1().Widgets(namespace).Watch(context.Background(), opts)
			},
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				if tweakListOptions != nil {
					tweakListOptions(&opts)
				}
				return client.WidgetsV1().Widgets(namespace).List(ctx, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				if tweakListOptions != nil {
					tweakListOptions(&opts)
				}
				return client.WidgetsV1().Widgets(namespace).Watch(ctx, opts)
			},
		}, client),
		&apiswidgetsv1.Widget{},
		cache.SharedIndexInformerOptions{
			ResyncPeriod: options.ResyncPeriod,
			Indexers:     options.Indexers,
			Identifier:   identifier,
		},
	))
}

func (f *widgetInformer) defaultInformer(client versioned.Interface, resyncPeriod time.Duration) cache.SharedIndexInformer {
	return NewTypedWidgetInformerWithOptions(client, f.namespace, internalinterfaces.InformerOptions{ResyncPeriod: resyncPeriod, Indexers: cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, InformerName: f.factory.InformerName(), TweakListOptions: f.tweakListOptions})
}

func (f *widgetInformer) Informer() cache.SharedIndexInformer {
	return f.TypedInformer()
}

func (f *widgetInformer) TypedInformer() WidgetIndexInformer {
	return cache.NewTypedSharedIndexInformer[*apiswidgetsv1.Widget](f.factory.InformerFor(&apiswidgetsv1.Widget{}, f.defaultInformer))
}

func (f *widgetInformer) Lister() widgetsv1.WidgetLister {
	return widgetsv1.NewWidgetLister(f.Informer().GetIndexer())
}

// ToTypedWidgetInformer converts an untyped informer into a TypedWidgetInformer.
//
// WARNING: this conversion is only safe if the informer handles objects of type
// *Widget. If that is not the case, calling type-safe methods of the returned
// TypedWidgetInformer leads to runtime panics. A safer alternative is to pass
// around a TypedWidgetInformer instances that was obtained from a
// SharedInformerFactory.
func ToTypedWidgetInformer(informer WidgetInformer) TypedWidgetInformer {
	if informer, ok := informer.(TypedWidgetInformer); ok {
		return informer
	}
	return &widgetTypedInformerAdapter{informer}
}

type widgetTypedInformerAdapter struct {
	WidgetInformer
}

func (a *widgetTypedInformerAdapter) TypedInformer() WidgetIndexInformer {
	return cache.NewTypedSharedIndexInformer[*apiswidgetsv1.Widget](a.Informer())
}

// ToWidgetIndexInformer converts an untyped informer into a WidgetIndexInformer.
//
// WARNING: this conversion is only safe if the informer handles objects of type
// *Widget. If that is not the case, calling type-safe methods of the returned
// WidgetIndexInformer leads to runtime panics. A safer alternative is to pass
// around a WidgetIndexInformer instances that was obtained from a
// SharedInformerFactory.
func ToWidgetIndexInformer(informer cache.SharedIndexInformer) WidgetIndexInformer {
	if informer, ok := informer.(WidgetIndexInformer); ok {
		return informer
	}
	return cache.NewTypedSharedIndexInformer[*apiswidgetsv1.Widget](informer)
}
