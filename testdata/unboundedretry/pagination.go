package unboundedretry

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// StampWidgets pages through every Widget (for { List; ...; if no
// continue token { break } }) and stamps each one in a retry of at most
// five attempts, half a second apart, re-reading the Widget after a
// conflict. The retry is the inner attempt loop, bounded with a backoff;
// the page loop around it is not a retry.
func StampWidgets(ctx context.Context, c client.Client, stamp string) error {
	var token string
	for {
		list := &widgetsv1.WidgetList{}
		if err := c.List(ctx, list, &client.ListOptions{Limit: 100, Continue: token}); err != nil {
			return err
		}
		for i := range list.Items {
			w := &list.Items[i]
			const maxAttempts = 5
			for attempt := 0; attempt < maxAttempts; attempt++ {
				if attempt > 0 {
					if err := c.Get(ctx, types.NamespacedName{Namespace: w.Namespace, Name: w.Name}, w); err != nil {
						return err
					}
				}
				w.Annotations["example.com/stamp"] = stamp
				if err := c.Update(ctx, w); err != nil {
					if apierrors.IsConflict(err) {
						if attempt == maxAttempts-1 {
							return fmt.Errorf("widget %s: still conflicting after %d attempts: %w", w.Name, maxAttempts, err)
						}
						time.Sleep(500 * time.Millisecond)
						continue
					}
					return err
				}
				break
			}
		}
		token = list.Continue
		if token == "" {
			return nil
		}
	}
}

// StampWidgetsForever is the same page loop with an inner retry that has
// no attempt bound: reported at the write.
func StampWidgetsForever(ctx context.Context, c client.Client, stamp string) error {
	var token string
	for {
		list := &widgetsv1.WidgetList{}
		if err := c.List(ctx, list, &client.ListOptions{Limit: 100, Continue: token}); err != nil {
			return err
		}
		for i := range list.Items {
			w := &list.Items[i]
			for {
				w.Annotations["example.com/stamp"] = stamp
				err := c.Update(ctx, w) // want "^unbounded-retry: "
				if err == nil {
					break
				}
				if !apierrors.IsConflict(err) {
					return err
				}
				if err := c.Get(ctx, types.NamespacedName{Namespace: w.Namespace, Name: w.Name}, w); err != nil {
					return err
				}
			}
		}
		token = list.Continue
		if token == "" {
			return nil
		}
	}
}
