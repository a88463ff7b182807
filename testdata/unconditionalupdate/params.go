package unconditionalupdate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/unconditionalupdate/kubeutil"
)

// ensureCertsSecret has kubeutil.ReconcileResource read the Secret into
// reconciled, whose address it is given in a field of its parameters.
func ensureCertsSecret(ctx context.Context, c client.Client, ns, name string) (*corev1.Secret, error) {
	expected := corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	var reconciled corev1.Secret
	if err := kubeutil.ReconcileResource(ctx, kubeutil.ReconcileParams{
		Client:     c,
		Expected:   &expected,
		Reconciled: &reconciled,
	}); err != nil {
		return nil, err
	}
	if reconciled.Data == nil {
		reconciled.Data = map[string][]byte{}
	}
	return &reconciled, nil
}

// The Secret comes back from the server through the helper's parameters:
// it carries the resourceVersion read.
func okUpdateSecretReadThroughParams(ctx context.Context, c client.Client, ns string, cert []byte) error {
	secret, err := ensureCertsSecret(ctx, c, ns, "transport-certs")
	if err != nil {
		return err
	}
	secret.Data["tls.crt"] = cert
	return c.Update(ctx, secret)
}

// certsRequest names a Secret to build; nothing is given its address.
type certsRequest struct {
	Secret *corev1.Secret
	Key    string
}

// buildCertsSecret builds a Secret and keeps it in a struct that no call is
// given: it stays a built object.
func buildCertsSecret(ns string, cert []byte) *corev1.Secret {
	var secret corev1.Secret
	secret.Namespace, secret.Name = ns, "transport-certs"
	req := certsRequest{Secret: &secret, Key: "tls.crt"}
	req.Secret.Data = map[string][]byte{req.Key: cert}
	return &secret
}

func badUpdateSecretBuiltInAStruct(ctx context.Context, c client.Client, ns string, cert []byte) error {
	secret := buildCertsSecret(ns, cert)
	return c.Update(ctx, secret) // want "^unconditional-update: "
}

// The functions above are run by the controller's workers.
var _ = []any{badUpdateSecretBuiltInAStruct}

// The functions above are run by the program's workers.
var _ = []any{okUpdateSecretReadThroughParams}
