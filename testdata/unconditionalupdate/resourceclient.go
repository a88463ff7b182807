package unconditionalupdate

import (
	"context"
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	"lostupdate.test/unconditionalupdate/kubeutil"
)

// A typed client of the program's own, reached through its interface: the
// analysis cannot see which implementation runs, so a list given to its
// List method with a context (as a call to a server is given one) may be
// filled in, and its items carry the resourceVersion the server sent.

var widgetClient kubeutil.ResourceClient[*widgetsv1.Widget]

func listedWidget(ctx context.Context, ns, owner string) (*widgetsv1.Widget, error) {
	list := &widgetsv1.WidgetList{}
	if err := widgetClient.List(ctx, ns, list, metav1.ListOptions{LabelSelector: "owner=" + owner}); err != nil {
		return nil, err
	}
	if len(list.Items) == 0 {
		return nil, errors.New("no widget")
	}
	return &list.Items[0], nil
}

// SetWidgetReplicas updates what the List filled in: not reported.
func SetWidgetReplicas(ctx context.Context, ns, owner string, replicas int32) error {
	w, err := listedWidget(ctx, ns, owner)
	if err != nil {
		return err
	}
	w.Spec.Replicas = &replicas
	_, err = widgetClient.Update(ctx, w, metav1.UpdateOptions{})
	return err
}

// ResetWidget, the positive control, updates an object built here and
// given to an interface method without a context, which defaults it and
// calls no server: it has no resourceVersion.
func ResetWidget(ctx context.Context, d kubeutil.Defaulter, ns, name string) error {
	w := &widgetsv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	d.Default(w)
	_, err := widgetClient.Update(ctx, w, metav1.UpdateOptions{}) // want "^unconditional-update: Update writes w, which is built without a resourceVersion"
	return err
}
