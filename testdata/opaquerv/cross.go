package opaquerv

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/opaquerv/kubeutil"
	"lostupdate.test/opaquerv/versions"
)

// A helper of another package parses what it is given: the version flows
// into it here.
func badHelperParses(oldObj, newObj *corev1.Endpoints) bool {
	return versions.Newer(newObj.ResourceVersion, oldObj.ResourceVersion) // want `^opaque-rv: newObj.ResourceVersion and oldObj.ResourceVersion are passed to versions.Newer, which parses them as numbers, but`
}

// A helper of another package that orders a variadic list.
func badHelperLatest(pods []corev1.Pod) string {
	if len(pods) == 0 {
		return ""
	}
	return versions.Latest(pods[0].ResourceVersion) // want `^opaque-rv: pods\[0\].ResourceVersion is passed to versions.Latest, which orders it as a string`
}

// A generic helper of another package that orders the keys it computes.
func badHelperSortByVersion(svcs []corev1.Service) {
	versions.SortBy(svcs, func(s corev1.Service) string { return s.ResourceVersion }) // want `^opaque-rv: s.ResourceVersion is passed to versions.SortBy, which orders it as a string`
}

// The same helpers used on other strings, or carrying versions opaquely.
func okHelpersOnOtherStrings(svcs []corev1.Service, attempt string) (string, int) {
	versions.SortBy(svcs, func(s corev1.Service) string { return s.Name })
	key := versions.Key(svcs[0].Namespace, svcs[0].Name, svcs[0].ResourceVersion)
	return key, versions.Attempt(attempt)
}

// A version returned by a helper of another package, then parsed.
func badVersionFromHelper(obj client.Object) (uint64, error) {
	var n uint64
	_, err := fmt.Sscanf(kubeutil.VersionOf(obj), "%d", &n) // want `^opaque-rv: fmt.Sscanf parses kubeutil.VersionOf\(obj\) as a number`
	return n, err
}

// A field another package fills with versions, ordered here.
func badFieldFromOtherPackage(a, b kubeutil.Entry) bool {
	return a.Version < b.Version // want `^opaque-rv: a.Version < b.Version orders resourceVersions by string order`
}

// A map field another package fills with versions, its values ordered here.
func badSeenVersions(seen *kubeutil.Seen, obj metav1.Object) bool {
	return seen.Versions[obj.GetName()] >= obj.GetResourceVersion() // want `^opaque-rv: seen.Versions\[obj.GetName\(\)\] >= obj.GetResourceVersion\(\) orders resourceVersions by string order`
}

// A field of the other package's type that holds no version.
func okOtherField(a, b kubeutil.Entry) bool {
	return a.Name < b.Name
}

// Equality of the versions of two different resources means nothing.
func badCrossTypeEquality(cm *corev1.ConfigMap, secret *corev1.Secret) bool {
	return cm.ResourceVersion == secret.ResourceVersion // want `^opaque-rv: cm.ResourceVersion == secret.ResourceVersion compares the resourceVersion of a ConfigMap with that of a Secret`
}

// CompareResourceVersion of two different resources, even with its error
// handled.
func badCrossTypeCompare(pod *corev1.Pod, node *corev1.Node) (bool, error) {
	c, err := resourceversion.CompareResourceVersion(pod.ResourceVersion, node.ResourceVersion) // want `^opaque-rv: resourceversion.CompareResourceVersion compares the resourceVersion of a Pod with that of a Node`
	if err != nil {
		return false, err
	}
	return c > 0, nil
}

// CompareResourceVersion of the same resource with its error handled.
func okCompareResourceVersion(ctx context.Context, c client.Client, cached *corev1.Pod) (bool, error) {
	var live corev1.Pod
	if err := c.Get(ctx, client.ObjectKeyFromObject(cached), &live); err != nil {
		return false, err
	}
	cmp, err := resourceversion.CompareResourceVersion(live.ResourceVersion, cached.ResourceVersion)
	if err != nil {
		return true, nil // not comparable: treat the cache as stale
	}
	return cmp > 0, nil
}

// CompareResourceVersion whose error is dropped.
func badCompareDropsError(a, b *corev1.Pod) bool {
	c, _ := resourceversion.CompareResourceVersion(a.ResourceVersion, b.ResourceVersion) // want `^opaque-rv: the error of resourceversion.CompareResourceVersion\(a.ResourceVersion, b.ResourceVersion\) is dropped`
	return c < 0
}

// An annotation value passed to a helper that parses it: not a version.
func okParseRevisionAnnotation(dep *corev1.ReplicationController) (int64, error) {
	return kubeutil.Revision(dep.Annotations["deployment.kubernetes.io/revision"])
}

// A version passed to a helper of another package that parses it.
func badRevisionOfVersion(dep *corev1.ReplicationController) (int64, error) {
	return kubeutil.Revision(dep.ResourceVersion) // want `^opaque-rv: dep.ResourceVersion is passed to kubeutil.Revision, which parses it as a number`
}

// The functions above are run by the controller's workers.
var _ = []any{badCompareDropsError, badCrossTypeCompare, badCrossTypeEquality, badFieldFromOtherPackage, badHelperLatest, badHelperParses, badHelperSortByVersion, badRevisionOfVersion, badSeenVersions, badVersionFromHelper}

// The functions above are run by the program's workers.
var _ = []any{okCompareResourceVersion, okHelpersOnOtherStrings, okOtherField, okParseRevisionAnnotation}
