// Package opaquerv holds the opaque-rv cases: code that parses or orders
// resourceVersions (reported) and the idioms that only carry them or compare
// two versions of the same object for equality (not reported).
package opaquerv

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// An informer UpdateFunc that drops "older" updates by string order.
func badUpdateFuncOrdersVersions(inf cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj interface{}) {
			oldPod := oldObj.(*corev1.Pod)
			newPod := newObj.(*corev1.Pod)
			if newPod.ResourceVersion <= oldPod.ResourceVersion { // want `^opaque-rv: newPod.ResourceVersion <= oldPod.ResourceVersion orders resourceVersions by string order, but resourceVersions are opaque strings: string order is not numeric order \("9" > "10"\), and aggregated API servers may serve versions that are not numbers; compare versions for equality, or order two versions of the same resource with resourceversion.CompareResourceVersion and handle its error$`
				return
			}
			key, err := cache.MetaNamespaceKeyFunc(newObj)
			if err == nil {
				q.Add(key)
			}
		},
	})
}

// The informer resync check: equal versions mean nothing changed.
func okUpdateFuncResyncCheck(inf cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj interface{}) {
			oldDep := oldObj.(*appsv1.Deployment)
			newDep := newObj.(*appsv1.Deployment)
			if newDep.ResourceVersion == oldDep.ResourceVersion {
				return // a periodic resync
			}
			key, err := cache.MetaNamespaceKeyFunc(newObj)
			if err == nil {
				q.Add(key)
			}
		},
	})
}

// A controller-runtime predicate that orders the versions of an update
// event, through client.Object.
func badPredicateNewerVersion() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			return e.ObjectNew.GetResourceVersion() > e.ObjectOld.GetResourceVersion() // want `^opaque-rv: e.ObjectNew.GetResourceVersion\(\) > e.ObjectOld.GetResourceVersion\(\) orders resourceVersions by string order`
		},
	}
}

// The same predicate with equality: what ResourceVersionChangedPredicate does.
func okPredicateVersionChanged() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			return e.ObjectNew.GetResourceVersion() != e.ObjectOld.GetResourceVersion()
		},
	}
}

// A handler that parses the versions of a tombstone's object through
// meta.Accessor.
func badDeleteHandlerParsesVersion(last map[string]int64) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			acc, err := meta.Accessor(obj)
			if err != nil {
				return
			}
			n, err := parseVersion(acc.GetResourceVersion())
			if err != nil {
				return
			}
			if n > last[acc.GetName()] {
				last[acc.GetName()] = n
			}
		},
	}
}

// parseVersion is a local helper: its parse is reported, with the call that
// passes it a resourceVersion as related information.
func parseVersion(version string) (int64, error) {
	var n int64
	_, err := fmt.Sscan(version, &n) // want `^opaque-rv: fmt.Sscan parses version \(acc.GetResourceVersion\(\)\) as a number`
	return n, err
}

// Logging a version carries it as an opaque string.
func okLogVersions(oldObj, newObj *corev1.ConfigMap) {
	klog.InfoS("configmap updated", "name", newObj.Name, "from", oldObj.ResourceVersion, "to", newObj.ResourceVersion)
}

// The functions above are run by the controller's workers.
var _ = []any{badPredicateNewerVersion, badUpdateFuncOrdersVersions}

// The functions above are run by the program's workers.
var _ = []any{badDeleteHandlerParsesVersion, okLogVersions, okPredicateVersionChanged, okUpdateFuncResyncCheck}

// An UpdateFunc that drops older updates by a hand-written numeric order of
// two versions of one Pod: longer first, then string order among versions
// of one length. For well-formed versions that is the order of
// resourceversion.CompareResourceVersion, not the string order of "9" and
// "10".
func okUpdateFuncLengthFirst(inf cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj interface{}) {
			oldPod := oldObj.(*corev1.Pod)
			newPod := newObj.(*corev1.Pod)
			if !versionReached(newPod.ResourceVersion, oldPod.ResourceVersion) || newPod.ResourceVersion == oldPod.ResourceVersion {
				return
			}
			if key, err := cache.MetaNamespaceKeyFunc(newObj); err == nil {
				q.Add(key)
			}
		},
	})
}

func versionReached(current, target string) bool {
	if current == target {
		return true
	}
	if len(current) != len(target) {
		return len(current) > len(target)
	}
	return current > target
}

// The length of only one version compared with a constant is no numeric
// order: "9" > "10" still.
func badNewerUnlessEmpty(oldPod, newPod *corev1.Pod) bool {
	if len(newPod.ResourceVersion) == 0 {
		return false
	}
	return newPod.ResourceVersion > oldPod.ResourceVersion // want `^opaque-rv: newPod.ResourceVersion > oldPod.ResourceVersion orders resourceVersions by string order`
}

var _ = []any{okUpdateFuncLengthFirst, badNewerUnlessEmpty}
