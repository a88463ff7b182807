// Hand-written imitation of client-gen output for the Widget custom resource
// (client-go v0.37.2 generation: gentype-based typed clients). Part of the
// lostupdate test corpus; nothing here is generated.

package v1

import (
	http "net/http"

	rest "k8s.io/client-go/rest"
	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	scheme "lostupdate.test/crd/clientset/versioned/scheme"
)

type WidgetsV1Interface interface {
	RESTClient() rest.Interface
	WidgetsGetter
}

// WidgetsV1Client is used to interact with features provided by the example.com group.
type WidgetsV1Client struct {
	restClient rest.Interface
}

func (c *WidgetsV1Client) Widgets(namespace string) WidgetInterface {
	return newWidgets(c, namespace)
}

// NewForConfig creates a new WidgetsV1Client for the given config.
// NewForConfig is equivalent to NewForConfigAndClient(c, httpClient),
// where httpClient was generated with rest.HTTPClientFor(c).
func NewForConfig(c *rest.Config) (*WidgetsV1Client, error) {
	config := *c
	setConfigDefaults(&config)
	httpClient, err := rest.HTTPClientFor(&config)
	if err != nil {
		return nil, err
	}
	return NewForConfigAndClient(&config, httpClient)
}

// NewForConfigAndClient creates a new WidgetsV1Client for the given config and http client.
// Note the http client provided takes precedence over the configured transport values.
func NewForConfigAndClient(c *rest.Config, h *http.Client) (*WidgetsV1Client, error) {
	config := *c
	setConfigDefaults(&config)
	client, err := rest.RESTClientForConfigAndClient(&config, h)
	if err != nil {
		return nil, err
	}
	return &WidgetsV1Client{client}, nil
}

// NewForConfigOrDie creates a new WidgetsV1Client for the given config and
// panics if there is an error in the config.
func NewForConfigOrDie(c *rest.Config) *WidgetsV1Client {
	client, err := NewForConfig(c)
	if err != nil {
		panic(err)
	}
	return client
}

// New creates a new WidgetsV1Client for the given RESTClient.
func New(c rest.Interface) *WidgetsV1Client {
	return &WidgetsV1Client{c}
}

func setConfigDefaults(config *rest.Config) {
	gv := widgetsv1.SchemeGroupVersion
	config.GroupVersion = &gv
	config.APIPath = "/apis"
	config.NegotiatedSerializer = rest.CodecFactoryForGeneratedClient(scheme.Scheme, scheme.Codecs).WithoutConversion()

	if config.UserAgent == "" {
		config.UserAgent = rest.DefaultKubernetesUserAgent()
	}
}

// RESTClient returns a RESTClient that is used to communicate
// with API server by this client implementation.
func (c *WidgetsV1Client) RESTClient() rest.Interface {
	if c == nil {
		return nil
	}
	return c.restClient
}
