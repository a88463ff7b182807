package opaquerv

import (
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// versionCache remembers the last version of each object it processed.
type versionCache struct {
	mu       sync.Mutex
	versions map[string]string
	objects  map[string]*corev1.Pod
	byRV     map[string]*corev1.Pod
	last     lastSeen
}

type lastSeen struct {
	rv      string
	version int64 // parsed: only the parse is reported
}

// isNewer orders the incoming version against a stored one: the stored
// value comes from the map the cache filled with versions.
func (c *versionCache) isNewer(obj metav1.Object) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, ok := c.versions[cache.MetaObjectToName(obj).String()]
	return !ok || obj.GetResourceVersion() > cur // want `^opaque-rv: obj.GetResourceVersion\(\) > cur orders resourceVersions by string order`
}

func (c *versionCache) remember(obj metav1.Object) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.versions[cache.MetaObjectToName(obj).String()] = obj.GetResourceVersion()
}

// A cache that keeps the "latest" pod by parsing versions into a field.
func (c *versionCache) observe(pod *corev1.Pod) {
	n, err := strconv.ParseInt(pod.ResourceVersion, 10, 64) // want `^opaque-rv: strconv.ParseInt parses pod.ResourceVersion as a number to compare it`
	if err != nil {
		return
	}
	if n > c.last.version {
		c.last.version = n
		c.last.rv = pod.ResourceVersion
	}
}

// The stored version, read back from a field, ordered against a new one.
func (c *versionCache) stale(pod *corev1.Pod) bool {
	return c.last.rv != "" && pod.ResourceVersion < c.last.rv // want `^opaque-rv: pod.ResourceVersion < c.last.rv orders resourceVersions by string order`
}

// A cache keyed by version: the version is only a key.
func (c *versionCache) okKeyedByVersion(pod *corev1.Pod) *corev1.Pod {
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.byRV[pod.ResourceVersion]; ok {
		return prev
	}
	c.byRV[pod.ResourceVersion] = pod
	return pod
}

// Comparing with the stored copy of the same object: equality only.
func (c *versionCache) okUnchanged(pod *corev1.Pod) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev, ok := c.objects[pod.Namespace+"/"+pod.Name]
	if ok && prev.ResourceVersion == pod.ResourceVersion {
		return true
	}
	c.objects[pod.Namespace+"/"+pod.Name] = pod
	return false
}

// The stored versions map, compared for equality with a new version.
func (c *versionCache) okSeen(obj metav1.Object) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.versions[cache.MetaObjectToName(obj).String()] == obj.GetResourceVersion()
}

// record is the program's own type with an integer field that merely shares
// the name: it is not a resourceVersion.
type record struct {
	Name            string
	ResourceVersion int64
	Generation      int64
}

func okOwnIntegerField(a, b record) bool {
	return a.ResourceVersion > b.ResourceVersion || a.Generation > b.Generation
}

// Generation and observedGeneration are integers made to be ordered.
func okGenerationArithmetic(dep *corev1.ReplicationController) bool {
	return dep.Generation > dep.Status.ObservedGeneration || dep.Generation-dep.Status.ObservedGeneration > 1
}

// Parsing other strings of the object is not about versions.
func okParseData(cm *corev1.ConfigMap, seen map[string]string) (int, error) {
	seen[cm.Name] = cm.ResourceVersion
	return strconv.Atoi(cm.Data["replicas"])
}

// A map of pods keyed by version, sorted by key.
func badSortedVersionKeys(pods []corev1.Pod) []string {
	byRV := map[string]corev1.Pod{}
	for _, p := range pods {
		byRV[p.ResourceVersion] = p
	}
	var keys []string
	for k := range byRV {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}

// The methods above are run by the controller's workers.
var _ = []any{(*versionCache).isNewer, (*versionCache).observe, (*versionCache).stale}

// The functions above are run by the program's workers.
var _ = []any{(*versionCache).okKeyedByVersion, (*versionCache).okSeen, (*versionCache).okUnchanged, (*versionCache).remember, badSortedVersionKeys, okGenerationArithmetic, okOwnIntegerField, okParseData}
