package opaquerv

import (
	"cmp"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// newest picks the object with the greatest version, for any object type.
func newest[T metav1.Object](objs []T) T {
	var best T
	for i, o := range objs {
		if i == 0 || cmp.Compare(o.GetResourceVersion(), best.GetResourceVersion()) > 0 { // want `^opaque-rv: cmp.Compare\(o.GetResourceVersion\(\), best.GetResourceVersion\(\)\) orders resourceVersions by string order`
			best = o
		}
	}
	return best
}

var _ = newest[*corev1.Pod]

// maxBy is a generic helper that orders keys; the key function passed to it
// returns versions.
func maxBy[T any](items []T, key func(T) string) T {
	var best T
	for i, it := range items {
		if i == 0 || key(it) > key(best) { // want `^opaque-rv: key\(it\) > key\(best\) orders resourceVersions by string order`
			best = it
		}
	}
	return best
}

func latestNode(nodes []corev1.Node) corev1.Node {
	return maxBy(nodes, func(n corev1.Node) string { return n.ResourceVersion })
}

// maxBy used with names is fine.
func lastByName(nodes []corev1.Node) corev1.Node {
	return maxBy(nodes, func(n corev1.Node) string { return n.Name })
}

// Sorting controller-runtime objects by version with slices.SortFunc.
func sortObjects[T client.Object](objs []T) {
	slices.SortFunc(objs, func(a, b T) int {
		return cmp.Compare(a.GetResourceVersion(), b.GetResourceVersion()) // want `^opaque-rv: cmp.Compare\(a.GetResourceVersion\(\), b.GetResourceVersion\(\)\) orders resourceVersions by string order`
	})
}

var _ = sortObjects[*corev1.Pod]

// Generic equality of versions: changed or not.
func changed[T metav1.Object](old, cur T) bool {
	return old.GetResourceVersion() != cur.GetResourceVersion()
}

var _ = changed[*corev1.Pod]

// A generic cache keyed by version.
type byVersion[T metav1.Object] struct {
	items map[string]T
}

func (c *byVersion[T]) add(obj T) {
	c.items[obj.GetResourceVersion()] = obj
}

func (c *byVersion[T]) get(rv string) (T, bool) {
	obj, ok := c.items[rv]
	return obj, ok
}

var _ = (*byVersion[*corev1.Pod]).add
var _ = (*byVersion[*corev1.Pod]).get

// The functions above are run by the program's workers.
var _ = []any{lastByName, latestNode}
