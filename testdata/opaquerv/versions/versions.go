// Package versions is a helper package of the program that imports no
// Kubernetes library: its functions take resourceVersions as plain strings.
package versions

import (
	"sort"
	"strconv"
)

// Newer reports whether version a is newer than version b, by parsing both.
func Newer(a, b string) bool { // want Newer:"parses #0; parses #1"
	x, err := strconv.ParseUint(a, 10, 64)
	if err != nil {
		return false
	}
	y, err := strconv.ParseUint(b, 10, 64)
	if err != nil {
		return false
	}
	return x > y
}

// Latest returns the greatest of some versions by string order.
func Latest(first string, more ...string) string { // want Latest:"orders #0"
	latest := first
	for _, v := range more {
		if v > latest {
			latest = v
		}
	}
	return latest
}

// SortBy sorts items by the string a key function returns for each.
func SortBy[T any](items []T, key func(T) string) { // want SortBy:"orders results of #1"
	sort.Slice(items, func(i, j int) bool { return key(items[i]) < key(items[j]) })
}

// Key builds a cache key: the version is only carried, never ordered.
func Key(namespace, name, version string) string {
	return namespace + "/" + name + "@" + version
}

// Attempt parses its argument as an attempt counter; callers pass counters.
func Attempt(s string) int { // want Attempt:"parses #0"
	n, _ := strconv.Atoi(s)
	return n
}

// compareRV is named like a version helper: its parse is reported here,
// where the name says the string is a resourceVersion.
func compareRV(rv1, rv2 string) int {
	a, _ := strconv.Atoi(rv1) // want "^opaque-rv: strconv.Atoi parses rv1 and rv2 as numbers to compare them"
	b, _ := strconv.Atoi(rv2)
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

var _ = compareRV
