package mutations

import (
	"context"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// A list sorted in place changes too: the merge patch sends it whole, in
// its new order, over whatever was added meanwhile.

func sortFinalizers(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	sort.Strings(cm.Finalizers)
	return c.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*finalizers list"
}

func sortConditions(ctx context.Context, c client.Client, key client.ObjectKey) error {
	widget := &widgetsv1.Widget{}
	if err := c.Get(ctx, key, widget); err != nil {
		return err
	}
	base := widget.DeepCopy()
	slices.SortFunc(widget.Status.Conditions, func(a, b metav1.Condition) int { return strings.Compare(a.Type, b.Type) })
	return c.Status().Patch(ctx, widget, client.MergeFrom(base)) // want "^unconditional-patch: Status\\(\\).Patch of widget .*status.conditions list"
}

// A sorted copy of the list, only read.
func okSortCopy(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	names := slices.Clone(cm.Finalizers)
	sort.Strings(names)
	cm.Data = map[string]string{"finalizers": strings.Join(names, ",")}
	return c.Patch(ctx, cm, client.MergeFrom(base))
}

func okSortLocked(ctx context.Context, c client.Client, key client.ObjectKey) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return err
	}
	base := cm.DeepCopy()
	sort.Strings(cm.Finalizers)
	return c.Patch(ctx, cm, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// The functions above are run by the controller's workers.
var _ = []any{sortConditions, sortFinalizers}

// The functions above are run by the program's workers.
var _ = []any{okSortCopy, okSortLocked}
