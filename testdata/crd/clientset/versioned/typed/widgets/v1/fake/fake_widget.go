// Hand-written imitation of client-gen output for the Widget custom resource
// (client-go v0.37.2 generation: gentype-based typed clients). Part of the
// lostupdate test corpus; nothing here is generated.

package fake

import (
	gentype "k8s.io/client-go/gentype"
	v1 "lostupdate.test/crd/apis/widgets/v1"
	widgetsv1 "lostupdate.test/crd/applyconfigurations/widgets/v1"
	typedwidgetsv1 "lostupdate.test/crd/clientset/versioned/typed/widgets/v1"
)

// fakeWidgets implements WidgetInterface
type fakeWidgets struct {
	*gentype.FakeClientWithListAndApply[*v1.Widget, *v1.WidgetList, *widgetsv1.WidgetApplyConfiguration]
	Fake *FakeWidgetsV1
}

func newFakeWidgets(fake *FakeWidgetsV1, namespace string) typedwidgetsv1.WidgetInterface {
	return &fakeWidgets{
		gentype.NewFakeClientWithListAndApply[*v1.Widget, *v1.WidgetList, *widgetsv1.WidgetApplyConfiguration](
			fake.Fake,
			namespace,
			v1.SchemeGroupVersion.WithResource("widgets"),
			v1.SchemeGroupVersion.WithKind("Widget"),
			func() *v1.Widget { return &v1.Widget{} },
			func() *v1.WidgetList { return &v1.WidgetList{} },
			func(dst, src *v1.WidgetList) { dst.ListMeta = src.ListMeta },
			func(list *v1.WidgetList) []*v1.Widget { return gentype.ToPointerSlice(list.Items) },
			func(list *v1.WidgetList, items []*v1.Widget) { list.Items = gentype.FromPointerSlice(items) },
		),
		fake,
	}
}
