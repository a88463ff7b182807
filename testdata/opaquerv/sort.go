package opaquerv

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
)

// Pagination by version, as a cursor: sort newest first, then keep the
// items "older" than the cursor. Each parse of a pair meets in one
// comparison, so each pair is one finding.
func badPaginateByVersion(items []batchv1.Job, cursor string) []batchv1.Job {
	sort.Slice(items, func(i, j int) bool {
		a, _ := strconv.Atoi(items[i].ResourceVersion) // want `^opaque-rv: strconv.Atoi parses items\[i\].ResourceVersion and items\[j\].ResourceVersion as numbers to compare them`
		b, _ := strconv.Atoi(items[j].ResourceVersion)
		return a > b
	})
	if cursor == "" {
		return items
	}
	var page []batchv1.Job
	for _, it := range items {
		rv, _ := strconv.Atoi(it.ResourceVersion) // want `^opaque-rv: strconv.Atoi parses it.ResourceVersion as a number to compare it`
		c, _ := strconv.Atoi(cursor)
		if rv < c {
			page = append(page, it)
		}
	}
	return page
}

// Sorting by version in a less function, without parsing.
func badSortByVersionString(roles []rbacv1.Role) {
	sort.SliceStable(roles, func(i, j int) bool {
		return roles[i].ResourceVersion < roles[j].ResourceVersion // want `^opaque-rv: roles\[i\].ResourceVersion < roles\[j\].ResourceVersion orders resourceVersions by string order`
	})
}

// Sorting by name is fine, also next to versions.
func okSortByName(pods []corev1.Pod) map[string]string {
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	versions := map[string]string{}
	for _, p := range pods {
		versions[p.Name] = p.ResourceVersion
	}
	return versions
}

// Versions collected in a slice and sorted.
func badSortCollectedVersions(list *corev1.PodList) string {
	var rvs []string
	for _, p := range list.Items {
		rvs = append(rvs, p.ResourceVersion)
	}
	sort.Strings(rvs) // want `^opaque-rv: sort.Strings sorts the resourceVersions in rvs by string order`
	return rvs[len(rvs)-1]
}

func sortStrings(s []string) {
	sort.Strings(s) // want `^opaque-rv: sort.Strings sorts the resourceVersions in s by string order`
}

// The greatest version by slices.Max.
func badMaxVersion(cms []corev1.ConfigMap) string {
	rvs := make([]string, 0, len(cms))
	for i := range cms {
		rvs = append(rvs, cms[i].ResourceVersion)
	}
	return slices.Max(rvs) // want `^opaque-rv: slices.Max orders the resourceVersions in rvs by string order`
}

// The greatest version by the max builtin, as a "high-water mark".
func badHighWaterMark(pods []*corev1.Pod) string {
	latest := ""
	for _, p := range pods {
		latest = max(latest, p.GetResourceVersion()) // want `^opaque-rv: max\(latest, p.GetResourceVersion\(\)\) picks a resourceVersion by string order`
	}
	return latest
}

// slices.SortFunc with strings.Compare on versions.
func badSortFuncCompare(secrets []corev1.Secret) {
	slices.SortFunc(secrets, func(a, b corev1.Secret) int {
		return strings.Compare(a.ResourceVersion, b.ResourceVersion) // want `^opaque-rv: strings.Compare\(a.ResourceVersion, b.ResourceVersion\) orders resourceVersions by string order`
	})
}

// A sorted slice of versions through a comparison function value.
func badSortFuncValue(rvs map[string]string) []string {
	out := make([]string, 0, len(rvs))
	for _, v := range rvs {
		out = append(out, v)
	}
	slices.SortFunc(out, strings.Compare) // want `^opaque-rv: slices.SortFunc sorts the resourceVersions in out by string order`
	return out
}

func fillVersions(m map[string]string, pods []corev1.Pod) {
	for _, p := range pods {
		m[p.Name] = p.ResourceVersion
	}
}

// strings.Compare only for equality is an equality test.
func okCompareForEquality(a, b *corev1.Service) bool {
	return strings.Compare(a.ResourceVersion, b.ResourceVersion) == 0
}

// cmp.Compare on names, with the version carried along.
func okCompareNames(a, b *corev1.Service) int {
	if c := cmp.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	if a.ResourceVersion == b.ResourceVersion {
		return 0
	}
	return 1
}

func sortPodVersions(pods []corev1.Pod) []string {
	m := map[string]string{}
	fillVersions(m, pods)
	return badSortFuncValue(m)
}

// The functions above are run by the controller's workers.
var _ = []any{badHighWaterMark, badMaxVersion, badPaginateByVersion, badSortByVersionString, badSortCollectedVersions, badSortFuncCompare}

// The functions above are run by the program's workers.
var _ = []any{okCompareForEquality, okCompareNames, okSortByName, sortPodVersions}
