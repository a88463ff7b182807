package opaquerv

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

// A watcher that resumes from the last bookmark: carrying the version into
// the next watch is right; keeping the "highest" version by parsing is not.
func badWatchHighestBookmark(ctx context.Context, cs kubernetes.Interface, ns string) error {
	var highest uint64
	resume := ""
	for {
		w, err := cs.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: resume, AllowWatchBookmarks: true})
		if err != nil {
			return err
		}
		for ev := range w.ResultChan() {
			if ev.Type != watch.Bookmark {
				continue
			}
			acc, err := meta.Accessor(ev.Object)
			if err != nil {
				continue
			}
			n, err := strconv.ParseUint(acc.GetResourceVersion(), 10, 64) // want `^opaque-rv: strconv.ParseUint parses acc.GetResourceVersion\(\) as a number to compare it`
			if err == nil && n > highest {
				highest = n
				resume = acc.GetResourceVersion()
			}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// Resuming from the last bookmark as an opaque string.
func okWatchResumeFromBookmark(ctx context.Context, cs kubernetes.Interface, ns string) error {
	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	resume := list.ResourceVersion
	for ctx.Err() == nil {
		w, err := cs.CoreV1().ConfigMaps(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: resume, AllowWatchBookmarks: true})
		if err != nil {
			return err
		}
		for ev := range w.ResultChan() {
			if obj, ok := ev.Object.(metav1.Object); ok {
				resume = obj.GetResourceVersion()
			}
		}
	}
	return nil
}

// The list's version and an item's version are of the same resource.
func okListVersionEqualsItem(list *corev1.PodList, pod *corev1.Pod) bool {
	return list.ResourceVersion == pod.ResourceVersion
}

// A version read from an unstructured object's map.
func badUnstructuredNestedVersion(u *unstructured.Unstructured) (int64, bool) {
	s, found, err := unstructured.NestedString(u.Object, "metadata", "resourceVersion")
	if err != nil || !found {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64) // want `^opaque-rv: strconv.ParseInt parses s \(the metadata.resourceVersion of u.Object\) as a number`
	return n, err == nil
}

// Versions sent over a channel to a goroutine that keeps the greatest.
func badChannelOfVersions(events <-chan watch.Event) string {
	rvs := make(chan string)
	go func() {
		defer close(rvs)
		for ev := range events {
			if u, ok := ev.Object.(*unstructured.Unstructured); ok {
				rvs <- u.GetResourceVersion()
			}
		}
	}()
	latest := ""
	for rv := range rvs {
		if rv > latest { // want `^opaque-rv: rv > latest orders resourceVersions by string order`
			latest = rv
		}
	}
	return latest
}

// The functions above are run by the controller's workers.
var _ = []any{badChannelOfVersions, badUnstructuredNestedVersion, badWatchHighestBookmark}

// The functions above are run by the program's workers.
var _ = []any{okListVersionEqualsItem, okWatchResumeFromBookmark}
