package opaquerv

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// A local object store keyed by version: the version read through
// meta.NewAccessor().ResourceVersion is parsed as a number, its error
// ignored, so an aggregated API server's non-numeric version is stored as 0.
type objectStore struct {
	versions map[string]uint64
}

func (s *objectStore) store(key string, obj runtime.Object) error {
	accessor := meta.NewAccessor()
	rv, err := accessor.ResourceVersion(obj)
	if err != nil {
		return fmt.Errorf("no resource version for %s: %w", key, err)
	}
	n, _ := strconv.ParseUint(rv, 10, 64) // want `^opaque-rv: strconv.ParseUint parses rv \(accessor.ResourceVersion\(obj\)\) as a number`
	s.versions[key] = n
	return nil
}

// The accessor's version, compared for equality with the one stored: fine.
func (s *objectStore) unchanged(key string, obj runtime.Object, stored string) bool {
	rv, err := meta.NewAccessor().ResourceVersion(obj)
	return err == nil && rv == stored
}

var _ = []any{(*objectStore).store, (*objectStore).unchanged}
