package kubeutil // want package:"has summaries"

import (
	"strconv"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// VersionOf returns the resourceVersion of an object.
func VersionOf(obj metav1.Object) string { // want VersionOf:"returns resourceVersion #0"
	return obj.GetResourceVersion()
}

// Entry is a cached object's identity.
type Entry struct {
	Name    string
	Version string // want Version:"holds resourceVersion"
}

// NewEntry records an object's name and version.
func NewEntry(obj metav1.Object) Entry {
	return Entry{Name: obj.GetName(), Version: obj.GetResourceVersion()}
}

// Seen remembers the versions of the objects a controller has seen.
type Seen struct {
	mu       sync.Mutex
	Versions map[string]string // want Versions:"holds resourceVersion elements"
}

// Record stores the version of an object under its name.
func (s *Seen) Record(obj metav1.Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Versions[obj.GetName()] = obj.GetResourceVersion()
}

// Revision parses the revision number of a release annotation; callers pass
// annotation values, not resourceVersions.
func Revision(s string) (int64, error) { // want Revision:"parses #0"
	return strconv.ParseInt(s, 10, 64)
}
