// Hand-written imitation of client-gen output for the Widget custom resource
// (client-go v0.37.2 generation: gentype-based typed clients). Part of the
// lostupdate test corpus; nothing here is generated.

package v1

import (
	context "context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	types "k8s.io/apimachinery/pkg/types"
	watch "k8s.io/apimachinery/pkg/watch"
	gentype "k8s.io/client-go/gentype"
	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	applyconfigurationswidgetsv1 "lostupdate.test/crd/applyconfigurations/widgets/v1"
	scheme "lostupdate.test/crd/clientset/versioned/scheme"
)

// WidgetsGetter has a method to return a WidgetInterface.
// A group's client should implement this interface.
type WidgetsGetter interface {
	Widgets(namespace string) WidgetInterface
}

// WidgetInterface has methods to work with Widget resources.
type WidgetInterface interface {
	Create(ctx context.Context, widget *widgetsv1.Widget, opts metav1.CreateOptions) (*widgetsv1.Widget, error)
	Update(ctx context.Context, widget *widgetsv1.Widget, opts metav1.UpdateOptions) (*widgetsv1.Widget, error)
	// Add a +genclient:noStatus comment above the type to avoid generating UpdateStatus().
	UpdateStatus(ctx context.Context, widget *widgetsv1.Widget, opts metav1.UpdateOptions) (*widgetsv1.Widget, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*widgetsv1.Widget, error)
	List(ctx context.Context, opts metav1.ListOptions) (*widgetsv1.WidgetList, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (result *widgetsv1.Widget, err error)
	Apply(ctx context.Context, widget *applyconfigurationswidgetsv1.WidgetApplyConfiguration, opts metav1.ApplyOptions) (result *widgetsv1.Widget, err error)
	// Add a +genclient:noStatus comment above the type to avoid generating ApplyStatus().
	ApplyStatus(ctx context.Context, widget *applyconfigurationswidgetsv1.WidgetApplyConfiguration, opts metav1.ApplyOptions) (result *widgetsv1.Widget, err error)
	WidgetExpansion
}

// widgets implements WidgetInterface
type widgets struct {
	*gentype.ClientWithListAndApply[*widgetsv1.Widget, *widgetsv1.WidgetList, *applyconfigurationswidgetsv1.WidgetApplyConfiguration]
}

// newWidgets returns a Widgets
func newWidgets(c *WidgetsV1Client, namespace string) *widgets {
	return &widgets{
		gentype.NewClientWithListAndApply[*widgetsv1.Widget, *widgetsv1.WidgetList, *applyconfigurationswidgetsv1.WidgetApplyConfiguration](
			"widgets",
			c.RESTClient(),
			scheme.ParameterCodec,
			namespace,
			func() *widgetsv1.Widget { return &widgetsv1.Widget{} },
			func() *widgetsv1.WidgetList { return &widgetsv1.WidgetList{} },
		),
	}
}
