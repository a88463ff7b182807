package unconditionalupdate

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrlclient "sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// createUpdateWidget creates the Widget it is given when none exists (the
// variable takes the built object for the Create), and otherwise updates
// it inside a retry whose every attempt reads it again first: the Update
// carries the version that Get read, whatever the variable held before
// the retry.
func createUpdateWidget(ctx context.Context, client ctrlclient.Client, desired widgetsv1.Widget) error {
	key := types.NamespacedName{Name: desired.Name, Namespace: desired.Namespace}
	existing := widgetsv1.Widget{}
	err := client.Get(ctx, key, &existing)
	if err != nil && !errors.IsNotFound(err) {
		return fmt.Errorf("get widget: %w", err)
	}
	if errors.IsNotFound(err) {
		existing = desired
		err = client.Create(ctx, &existing)
		if err == nil {
			return nil
		}
		if !errors.IsAlreadyExists(err) {
			return fmt.Errorf("create widget: %w", err)
		}
		if err := client.Get(ctx, key, &existing); err != nil {
			return fmt.Errorf("get widget after conflict: %w", err)
		}
	}
	if reflect.DeepEqual(existing.Spec, desired.Spec) && reflect.DeepEqual(existing.Labels, desired.Labels) {
		return nil
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := client.Get(ctx, key, &existing); err != nil {
			return err
		}
		existing.Spec = desired.Spec
		existing.Labels = desired.Labels
		return client.Update(ctx, &existing)
	})
}

// The positive control: the retried function does not read, so its
// attempts resend what the variable held before the retry: the built
// Widget when the Create finds it exists (a PUT without a resourceVersion),
// or the one read first (a stale retry).
func createUpdateWidgetBlind(ctx context.Context, client ctrlclient.Client, desired widgetsv1.Widget) error {
	key := types.NamespacedName{Name: desired.Name, Namespace: desired.Namespace}
	existing := widgetsv1.Widget{}
	err := client.Get(ctx, key, &existing)
	if err != nil && !errors.IsNotFound(err) {
		return fmt.Errorf("get widget: %w", err)
	}
	if errors.IsNotFound(err) {
		existing = desired
		err = client.Create(ctx, &existing)
		if err == nil || !errors.IsAlreadyExists(err) {
			return err
		}
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		existing.Spec = desired.Spec
		return client.Update(ctx, &existing) // want "^unconditional-update: " "^stale-retry: "
	})
}

func generatedWidget(name, ns string) widgetsv1.Widget {
	w := widgetsv1.Widget{Spec: widgetsv1.WidgetSpec{Image: "registry.example/widget:v2"}}
	w.Name, w.Namespace = name, ns
	return w
}

// SyncWidget and SyncWidgetBlind are the package's entry points: each
// passes a built Widget.
func SyncWidget(ctx context.Context, client ctrlclient.Client, name, ns string) error {
	return createUpdateWidget(ctx, client, generatedWidget(name, ns))
}

func SyncWidgetBlind(ctx context.Context, client ctrlclient.Client, name, ns string) error {
	return createUpdateWidgetBlind(ctx, client, generatedWidget(name, ns))
}
