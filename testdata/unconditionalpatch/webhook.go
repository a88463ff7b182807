package unconditionalpatch

import (
	"context"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// injectCABundle sets the CA bundle of every webhook with a JSON merge
// patch: the whole webhooks list is sent, so a webhook another writer added
// or changed since the read is lost. (The bundle itself is a base64
// string, not a list.)
func injectCABundle(ctx context.Context, c client.Client, name string, ca []byte) error {
	var cfg admissionregistrationv1.MutatingWebhookConfiguration
	if err := c.Get(ctx, types.NamespacedName{Name: name}, &cfg); err != nil {
		return err
	}
	base := cfg.DeepCopy()
	for i := range cfg.Webhooks {
		cfg.Webhooks[i].ClientConfig.CABundle = ca
	}
	return c.Patch(ctx, &cfg, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cfg .*the webhooks list of cfg changed"
}

// The same with a strategic merge patch: webhooks merge by name, and the
// bundle is one value of one webhook.
func injectCABundleStrategic(ctx context.Context, c client.Client, name string, ca []byte) error {
	var cfg admissionregistrationv1.MutatingWebhookConfiguration
	if err := c.Get(ctx, types.NamespacedName{Name: name}, &cfg); err != nil {
		return err
	}
	base := cfg.DeepCopy()
	for i := range cfg.Webhooks {
		cfg.Webhooks[i].ClientConfig.CABundle = ca
	}
	return c.Patch(ctx, &cfg, client.StrategicMergeFrom(base))
}

// The functions above are run by the controller's workers.
var _ = []any{injectCABundle}

// The functions above are run by the program's workers.
var _ = []any{injectCABundleStrategic}
