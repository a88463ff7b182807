// Package fakestore is an in-memory object store for tests. It issues
// resourceVersions itself, so it may parse them: nothing here is reported.
package fakestore

import (
	"fmt"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Store keeps ConfigMaps and a version counter, like etcd's revision.
type Store struct {
	mu   sync.Mutex
	rev  uint64
	objs map[string]*corev1.ConfigMap
}

// New returns an empty store.
func New() *Store { return &Store{objs: map[string]*corev1.ConfigMap{}} }

// Update stores cm if its resourceVersion is the current one, and gives it
// the next version.
func (s *Store) Update(cm *corev1.ConfigMap) (*corev1.ConfigMap, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := cm.Namespace + "/" + cm.Name
	cur, ok := s.objs[key]
	if !ok {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, cm.Name)
	}
	if cm.ResourceVersion != "" && cm.ResourceVersion != cur.ResourceVersion {
		return nil, apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, cm.Name, fmt.Errorf("stale"))
	}
	out := cm.DeepCopy()
	out.SetResourceVersion(s.next())
	s.objs[key] = out
	return out.DeepCopy(), nil
}

// next issues the next version.
func (s *Store) next() string {
	s.rev++
	return strconv.FormatUint(s.rev, 10)
}

// Since returns the objects changed after a version the store issued.
func (s *Store) Since(rv string) ([]*corev1.ConfigMap, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	from, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return nil, err
	}
	var out []*corev1.ConfigMap
	for _, cm := range s.objs {
		v, err := strconv.ParseUint(cm.ResourceVersion, 10, 64)
		if err != nil {
			return nil, err
		}
		if v > from {
			out = append(out, cm.DeepCopy())
		}
	}
	return out, nil
}
