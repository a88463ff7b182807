package opaquerv

import (
	"context"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Waiting until the informer has seen our own write, by integer order of
// the versions (argo-cd's waitSync): both parses meet in one comparison.
func badWaitForCache(lister corelisters.ServiceAccountLister, written *corev1.ServiceAccount, timeout time.Duration) {
	minRV, err := strconv.Atoi(written.ResourceVersion) // want `^opaque-rv: strconv.Atoi parses written.ResourceVersion and cur.ResourceVersion as numbers to compare them`
	if err != nil {
		time.Sleep(50 * time.Millisecond)
		return
	}
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cur, err := lister.ServiceAccounts(written.Namespace).Get(written.Name); err == nil {
			if rv, err := strconv.Atoi(cur.ResourceVersion); err == nil && rv >= minRV {
				return
			}
		}
	}
}

// The same wait done right: equality with what we wrote.
func okWaitForOwnWrite(lister corelisters.ServiceAccountLister, written *corev1.ServiceAccount, timeout time.Duration) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cur, err := lister.ServiceAccounts(written.Namespace).Get(written.Name); err == nil && cur.ResourceVersion == written.ResourceVersion {
			return true
		}
	}
	return false
}

// operatorClient mimics an operator client whose state getters return the
// resourceVersion as a named string result.
type operatorClient interface {
	GetOperatorState() (spec *corev1.PodSpec, status *corev1.PodStatus, resourceVersion string, err error)
	GetOperatorStateWithQuorum(ctx context.Context) (spec *corev1.PodSpec, status *corev1.PodStatus, resourceVersion string, err error)
}

// installer keeps the last version it applied as a number (library-go's
// installer controller).
type installer struct {
	client        operatorClient
	applied       bool
	lastAppliedRV uint64
}

func (c *installer) sync(ctx context.Context) error {
	_, _, operatorRV, err := c.client.GetOperatorState()
	if err != nil {
		return err
	}
	if c.applied && c.lastAppliedRV == 0 {
		_, _, liveRV, err := c.client.GetOperatorStateWithQuorum(ctx)
		if err != nil {
			return err
		}
		if c.lastAppliedRV, err = strconv.ParseUint(liveRV, 10, 64); err != nil { // want `^opaque-rv: strconv.ParseUint parses liveRV and operatorRV as numbers to compare them`
			return err
		}
	}
	cur, err := strconv.ParseUint(operatorRV, 10, 64)
	if err != nil {
		return err
	}
	if cur < c.lastAppliedRV {
		return nil // the lister has not seen our last write yet
	}
	return nil
}

// The informer's last synced version, ordered against a written one.
func badInformerCaughtUp(inf cache.SharedIndexInformer, written metav1.Object) bool {
	return inf.LastSyncResourceVersion() >= written.GetResourceVersion() // want `^opaque-rv: inf.LastSyncResourceVersion\(\) >= written.GetResourceVersion\(\) orders resourceVersions by string order`
}

// Predicting the next version with arithmetic.
func badNextVersion(obj metav1.Object) metav1.ListOptions {
	n, _ := strconv.ParseUint(obj.GetResourceVersion(), 10, 64) // want `^opaque-rv: strconv.ParseUint parses obj.GetResourceVersion\(\) as a number to compute with`
	return metav1.ListOptions{ResourceVersion: strconv.FormatUint(n+1, 10)}
}

// A version passed through as an opaque string: options, preconditions.
func okPassThrough(obj metav1.Object) (metav1.ListOptions, metav1.DeleteOptions) {
	rv := obj.GetResourceVersion()
	return metav1.ListOptions{ResourceVersion: rv, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan},
		metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}}
}

// A parameter named like a version only carried into options.
func okNamedParameter(resourceVersion string) metav1.GetOptions {
	if resourceVersion == "" {
		resourceVersion = "0"
	}
	return metav1.GetOptions{ResourceVersion: resourceVersion}
}

// A test helper named after versions (kubevirt's rvNotNewer), used as a
// callback: its parameter names say what it parses.
func rvNotNewer(rv, seen string) bool {
	a, err := strconv.ParseInt(rv, 10, 32) // want `^opaque-rv: strconv.ParseInt parses rv \(kv.ResourceVersion\) as a number to compare it`
	if err != nil {
		return false
	}
	b, err := strconv.ParseInt(seen, 10, 32)
	if err != nil {
		return false
	}
	return a <= b
}

func waitForConfig(get func() string, rv string, cmp func(string, string) bool) bool {
	return cmp(rv, get())
}

func waitForVersion(kv *corev1.ConfigMap, get func() string) bool {
	return waitForConfig(get, kv.ResourceVersion, rvNotNewer)
}

// The functions above are run by the controller's workers.
var _ = []any{(*installer).sync, badInformerCaughtUp, badNextVersion, badWaitForCache}

// The functions above are run by the program's workers.
var _ = []any{okNamedParameter, okPassThrough, okWaitForOwnWrite, waitForVersion}
