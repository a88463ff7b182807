package opaquerv

import (
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Two parses with their errors checked alike, then one comparison: the
// suggested fix replaces them with CompareResourceVersion.
func rvNotNewerThan(obj, seen metav1.Object) bool {
	a, err := strconv.ParseInt(obj.GetResourceVersion(), 10, 64) // want `^opaque-rv: strconv.ParseInt parses obj.GetResourceVersion\(\) and seen.GetResourceVersion\(\) as numbers to compare them`
	if err != nil {
		return false
	}
	b, err := strconv.ParseInt(seen.GetResourceVersion(), 10, 64)
	if err != nil {
		return false
	}
	return a <= b
}

// store skips "older" events (consul-api-gateway's upsertIfNewer): errors
// ignored, so the fixed comparison is false when the versions are not
// comparable, and the event is processed.
type store struct {
	gateways map[string]*corev1.Service
}

func (s *store) upsertIfNewer(svc *corev1.Service) bool {
	if cur, ok := s.gateways[svc.Name]; ok {
		newRV, _ := strconv.Atoi(svc.ResourceVersion) // want `^opaque-rv: strconv.Atoi parses svc.ResourceVersion and cur.ResourceVersion as numbers to compare them`
		oldRV, _ := strconv.Atoi(cur.ResourceVersion)
		if oldRV >= newRV {
			return false
		}
	}
	s.gateways[svc.Name] = svc
	return true
}

// Not mechanical: the numbers are used again, so no fix is offered.
func lagOf(a, b *corev1.Endpoints) (time.Duration, bool) {
	x, _ := strconv.Atoi(a.ResourceVersion) // want `^opaque-rv: strconv.Atoi parses a.ResourceVersion and b.ResourceVersion as numbers to compare and compute with`
	y, _ := strconv.Atoi(b.ResourceVersion)
	if x > y {
		return time.Duration(x-y) * time.Millisecond, true
	}
	return 0, false
}

// The functions above are run by the controller's workers.
var _ = []any{(*store).upsertIfNewer, lagOf, rvNotNewerThan}
