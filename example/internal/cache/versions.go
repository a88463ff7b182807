// Package cache remembers the last Guestbook version each worker has
// handled, so that a worker can skip events it has already seen.
package cache

import (
	"strconv"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Versions maps an object's key to the last resourceVersion handled.
type Versions struct {
	mu   sync.Mutex
	last map[client.ObjectKey]string
}

// NewVersions returns an empty cache.
func NewVersions() *Versions {
	return &Versions{last: map[client.ObjectKey]string{}}
}

// Outdated reports whether obj is older than the version already handled.
// Bug: resourceVersions are opaque strings. Parsing them as numbers breaks
// on API servers whose versions are not integers, and a parse error turns
// every version into 0, so new events are skipped as "old".
func (v *Versions) Outdated(obj client.Object) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	key := client.ObjectKeyFromObject(obj)
	seen, _ := strconv.ParseUint(v.last[key], 10, 64)
	cur, _ := strconv.ParseUint(obj.GetResourceVersion(), 10, 64)
	if cur <= seen {
		return true
	}
	v.last[key] = obj.GetResourceVersion()
	return false
}
