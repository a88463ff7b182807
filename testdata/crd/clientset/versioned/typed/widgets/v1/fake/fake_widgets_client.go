// Hand-written imitation of client-gen output for the Widget custom resource
// (client-go v0.37.2 generation: gentype-based typed clients). Part of the
// lostupdate test corpus; nothing here is generated.

package fake

import (
	rest "k8s.io/client-go/rest"
	testing "k8s.io/client-go/testing"
	v1 "lostupdate.test/crd/clientset/versioned/typed/widgets/v1"
)

type FakeWidgetsV1 struct {
	*testing.Fake
}

func (c *FakeWidgetsV1) Widgets(namespace string) v1.WidgetInterface {
	return newFakeWidgets(c, namespace)
}

// RESTClient returns a RESTClient that is used to communicate
// with API server by this client implementation.
func (c *FakeWidgetsV1) RESTClient() rest.Interface {
	var ret *rest.RESTClient
	return ret
}
