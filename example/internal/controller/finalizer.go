package controller

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	webappv1 "example.com/guestbook-operator/api/v1"
)

const cleanupFinalizer = "example.com/cleanup"

// ensureFinalizer adds the cleanup finalizer to a Guestbook.
func (r *GuestbookReconciler) ensureFinalizer(ctx context.Context, gb *webappv1.Guestbook) error {
	if controllerutil.ContainsFinalizer(gb, cleanupFinalizer) {
		return nil
	}
	// Bug: a JSON merge patch replaces the whole finalizers list; a
	// finalizer another controller added since gb was read is removed.
	patch := client.MergeFrom(gb.DeepCopy())
	controllerutil.AddFinalizer(gb, cleanupFinalizer)
	return r.Patch(ctx, gb, patch)
}
