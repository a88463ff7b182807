package unconditionalupdate

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/crd/clientset/versioned"
	widgetlisters "lostupdate.test/crd/listers/widgets/v1"
)

// A "widgetctl set-image" command builds the Widget from its flags and PUTs it: replicas, labels and ports set by others are wiped.
func badWidgetUpdateFromFlags(ctx context.Context, wc versioned.Interface, ns, name, image string) error {
	w := &widgetsv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       widgetsv1.WidgetSpec{Image: image},
	}
	_, err := wc.WidgetsV1().Widgets(ns).Update(ctx, w, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// A status reporter PUTs a Widget status built from scratch to the status subresource of a generated CRD client.
func badWidgetUpdateStatusFromScratch(ctx context.Context, wc versioned.Interface, ns, name string, ready int32) error {
	status := widgetsv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	status.Status.Phase = "Running"
	status.Status.ReadyReplicas = ready
	_, err := wc.WidgetsV1().Widgets(ns).UpdateStatus(ctx, &status, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// Create-or-replace of a custom resource: the API server requires a resourceVersion on a custom resource's update, so the fallback PUT always fails. Reported.
func badWidgetReplaceOnAlreadyExists(ctx context.Context, wc versioned.Interface, ns, name, image string) error {
	w := &widgetsv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       widgetsv1.WidgetSpec{Image: image},
	}
	_, err := wc.WidgetsV1().Widgets(ns).Create(ctx, w, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		_, err = wc.WidgetsV1().Widgets(ns).Update(ctx, w, metav1.UpdateOptions{}) // want "^unconditional-update: .*rejects it"
	}
	return err
}

// Read-modify-write through the CRD clientset.
func okWidgetGetUpdate(ctx context.Context, wc versioned.Interface, ns, name string) error {
	w, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	w.Spec.Paused = true
	_, err = wc.WidgetsV1().Widgets(ns).Update(ctx, w, metav1.UpdateOptions{})
	return err
}

// WidgetListerController is an informer controller for Widgets built on the generated lister.
type WidgetListerController struct {
	clientset versioned.Interface
	lister    widgetlisters.WidgetLister
}

// Status written on a DeepCopy of the lister's Widget, error returned to the queue.
func (c *WidgetListerController) syncWidget(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := c.lister.Widgets(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	w := cached.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type:   "Ready",
		Status: metav1.ConditionTrue,
		Reason: "Synced",
	})
	_, err = c.clientset.WidgetsV1().Widgets(ns).UpdateStatus(ctx, w, metav1.UpdateOptions{})
	return err
}

// Defaulting every listed Widget through the CRD clientset.
func okWidgetListDefaultReplicas(ctx context.Context, wc versioned.Interface, ns string) error {
	list, err := wc.WidgetsV1().Widgets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, w := range list.Items {
		if w.Spec.Replicas != nil {
			continue
		}
		w.Spec.Replicas = ptr.To[int32](1)
		if _, err := wc.WidgetsV1().Widgets(ns).Update(ctx, &w, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// The Widget to write is a copy of the proposed one when there is no
// current Widget, and a copy of the current one otherwise; the same test
// then chooses between Create and Update. The Update only ever sees the
// copy of current, which carries its resourceVersion. Not reported.
func goodProposedOnlyWhenNoneExists(ctx context.Context, wc versioned.Interface, proposed, current *widgetsv1.Widget) error {
	var next *widgetsv1.Widget
	if current == nil {
		next = proposed.DeepCopy()
	} else {
		next = current.DeepCopy()
		next.Spec = proposed.Spec
	}
	next.Labels = map[string]string{"example.com/generated": "true"}
	var err error
	if current == nil {
		_, err = wc.WidgetsV1().Widgets(next.Namespace).Create(ctx, next, metav1.CreateOptions{})
	} else if next.Spec.Image != current.Spec.Image {
		_, err = wc.WidgetsV1().Widgets(next.Namespace).Update(ctx, next, metav1.UpdateOptions{})
	}
	return err
}

// The same, but the proposed copy is also taken when force is set, whether
// or not a current Widget exists: the Update can send the proposed Widget
// with no resourceVersion.
func badProposedWhenForced(ctx context.Context, wc versioned.Interface, proposed, current *widgetsv1.Widget, force bool) error {
	var next *widgetsv1.Widget
	if current == nil || force {
		next = proposed.DeepCopy()
	} else {
		next = current.DeepCopy()
		next.Spec = proposed.Spec
	}
	var err error
	if current == nil {
		_, err = wc.WidgetsV1().Widgets(next.Namespace).Create(ctx, next, metav1.CreateOptions{})
	} else {
		_, err = wc.WidgetsV1().Widgets(next.Namespace).Update(ctx, next, metav1.UpdateOptions{}) // want "^unconditional-update: "
	}
	return err
}

// desiredWidget is the Widget a template asks for.
func desiredWidget(ns, name, image string) *widgetsv1.Widget {
	return &widgetsv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       widgetsv1.WidgetSpec{Image: image},
	}
}

// currentWidget returns the Widget as it is, or nil if there is none.
func currentWidget(ctx context.Context, wc versioned.Interface, ns, name string) (*widgetsv1.Widget, error) {
	w, err := wc.WidgetsV1().Widgets(ns).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return w, err
}

func syncWidget(ctx context.Context, wc versioned.Interface, ns, name, image string, force bool) error {
	current, err := currentWidget(ctx, wc, ns, name)
	if err != nil {
		return err
	}
	if err := goodProposedOnlyWhenNoneExists(ctx, wc, desiredWidget(ns, name, image), current); err != nil {
		return err
	}
	return badProposedWhenForced(ctx, wc, desiredWidget(ns, name, image), current, force)
}

// The control in a loop: the test that ends the range loop is evaluated in
// its header, after the header's phi chose the way in. The Widget built on
// the last pass reaches the Update after the loop without a
// resourceVersion.
func badBuiltInLoop(ctx context.Context, wc versioned.Interface, ns, image string, names []string) error {
	var found *widgetsv1.Widget
	for _, name := range names {
		if name != "" {
			found = &widgetsv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Spec: widgetsv1.WidgetSpec{Image: image}}
		}
	}
	if found != nil {
		_, err := wc.WidgetsV1().Widgets(ns).Update(ctx, found, metav1.UpdateOptions{}) // want "^unconditional-update: "
		return err
	}
	return nil
}

// The functions above are run by the controller's workers.
var _ = []any{syncWidget, badBuiltInLoop, badWidgetReplaceOnAlreadyExists, badWidgetUpdateFromFlags, badWidgetUpdateStatusFromScratch}

// The functions above are run by the program's workers.
var _ = []any{(*WidgetListerController).syncWidget, okWidgetGetUpdate, okWidgetListDefaultReplicas}
