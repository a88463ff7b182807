package missingretry

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"
)

var backupGVR = schema.GroupVersionResource{Group: "velero.io", Version: "v1", Resource: "backups"}

// A status reporter for a custom resource prints the UpdateStatus failure and
// returns nothing.
func badDynamicStatusPrinted(ctx context.Context, dc dynamic.Interface, ns, name, phase string) {
	backup, err := dc.Resource(backupGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		fmt.Printf("get backup %s/%s: %v\n", ns, name, err)
		return
	}
	if err := unstructured.SetNestedField(backup.Object, phase, "status", "phase"); err != nil {
		return
	}
	if _, err := dc.Resource(backupGVR).Namespace(ns).UpdateStatus(ctx, backup, metav1.UpdateOptions{}); err != nil { // want "^missing-retry: .*backup"
		fmt.Printf("update backup %s/%s status: %v\n", ns, name, err)
	}
}

// A generic finalizer sweeper skips objects that conflict and returns only
// other errors; the skipped objects keep the finalizer.
func badDynamicSweepSkipsConflicts(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, ns, finalizer string) error {
	list, err := dc.Resource(gvr).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range list.Items {
		item := &list.Items[i]
		kept := item.GetFinalizers()[:0]
		for _, f := range item.GetFinalizers() {
			if f != finalizer {
				kept = append(kept, f)
			}
		}
		item.SetFinalizers(kept)
		_, err := dc.Resource(gvr).Namespace(ns).Update(ctx, item, metav1.UpdateOptions{}) // want "^missing-retry: .*item"
		if apierrors.IsConflict(err) {
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// A dynamic annotator gets an object from its caller and drops the result.
func badDynamicParameterDiscarded(ctx context.Context, dc dynamic.Interface, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) {
	annotations := obj.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations["example.com/owner"] = "platform"
	obj.SetAnnotations(annotations)
	_, _ = dc.Resource(gvr).Namespace(obj.GetNamespace()).Update(ctx, obj, metav1.UpdateOptions{}) // want "^missing-retry: .*obj"
}

// The dynamic Update's error is wrapped and returned.
func okDynamicErrorReturned(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	backup, err := dc.Resource(backupGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(backup.Object, "720h", "spec", "ttl"); err != nil {
		return err
	}
	if _, err := dc.Resource(backupGVR).Namespace(ns).Update(ctx, backup, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("set ttl on backup %s/%s: %w", ns, name, err)
	}
	return nil
}

// A hand-written conflict retry that re-reads each attempt; only the final
// failure is logged.
func okDynamicHandWrittenRetryLogged(ctx context.Context, dc dynamic.Interface, ns, name string) {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var backup *unstructured.Unstructured
		backup, err = dc.Resource(backupGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			break
		}
		labels := backup.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels["example.com/verified"] = "true"
		backup.SetLabels(labels)
		_, err = dc.Resource(backupGVR).Namespace(ns).Update(ctx, backup, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
	}
	if err != nil {
		klog.ErrorS(err, "Failed to mark backup verified", "backup", klog.KRef(ns, name))
	}
}

// The functions above are run by the controller's workers.
var _ = []any{badDynamicParameterDiscarded, badDynamicStatusPrinted, badDynamicSweepSkipsConflicts}

// The functions above are run by the program's workers.
var _ = []any{okDynamicErrorReturned, okDynamicHandWrittenRetryLogged}
