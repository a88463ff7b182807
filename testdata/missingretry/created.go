package missingretry

import (
	"context"
	"log"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// The second half of creating an object: a Create cannot set the status
// subresource, so the creator writes it right after, on the object the
// Create answered with. Nobody read that object to change it; a 409 means
// the object's own controller has begun to write it, and what it wrote
// stands. Not reported.

// A lost Widget is recreated and its last known state put back.
func okRestoreWidget(ctx context.Context, c client.Client, lost *widgetsv1.Widget) error {
	w := &widgetsv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: lost.Name, Namespace: lost.Namespace},
		Spec:       lost.Spec,
	}
	if err := c.Create(ctx, w); err != nil {
		return err
	}
	w.Status = lost.Status
	if err := c.Status().Update(ctx, w); err != nil {
		log.Printf("restoring the status of widget %s: %v", w.Name, err)
	}
	return nil
}

// A typed client answers the Create with the object created; the status is
// seeded on that answer, and a conflict leaves the owner's status alone.
func okSeedNodeStatus(ctx context.Context, cs kubernetes.Interface, desired *corev1.Node) error {
	created, err := cs.CoreV1().Nodes().Create(ctx, desired, metav1.CreateOptions{})
	if err != nil {
		if apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	}
	created.Status.Addresses = desired.Status.Addresses
	if _, err := cs.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsConflict(err) {
			return nil
		}
		return err
	}
	return nil
}

// The control: the object is read again after it was created, and the
// status computed from what was read; a conflict loses that change.
func badRestoreWidgetAfterRead(ctx context.Context, c client.Client, lost *widgetsv1.Widget) error {
	w := &widgetsv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: lost.Name, Namespace: lost.Namespace},
		Spec:       lost.Spec,
	}
	if err := c.Create(ctx, w); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = w.Generation
	if err := c.Status().Update(ctx, w); err != nil { // want "^missing-retry: Status\\(\\)\\.Update of w .*only logged"
		log.Printf("restoring the status of widget %s: %v", w.Name, err)
	}
	return nil
}

// The functions above are run by the controller's workers.
var _ = []any{okRestoreWidget, okSeedNodeStatus, badRestoreWidgetAfterRead}
