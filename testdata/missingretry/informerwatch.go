package missingretry

import (
	"context"

	certv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	certlisters "k8s.io/client-go/listers/certificates/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// A client-go controller whose informer queues every update of a
// CertificateSigningRequest (its UpdateFunc drops only resyncs, and
// requests of other signers): a status write lost to a conflict is
// followed by the conflicting write's event, and the next sync computes
// the condition afresh.
type csrSigner struct {
	cs     kubernetes.Interface
	lister certlisters.CertificateSigningRequestLister
	queue  workqueue.TypedRateLimitingInterface[string]
}

func newCSRSigner(cs kubernetes.Interface, factory informers.SharedInformerFactory) *csrSigner {
	csrs := factory.Certificates().V1().CertificateSigningRequests()
	s := &csrSigner{cs: cs, lister: csrs.Lister(), queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	_, _ = csrs.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    s.enqueue,
		UpdateFunc: s.enqueueUpdate,
	})
	return s
}

func (s *csrSigner) enqueue(obj any) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		s.queue.Add(key)
	}
}

func (s *csrSigner) enqueueUpdate(oldObj, newObj any) {
	oldCSR := oldObj.(*certv1.CertificateSigningRequest)
	newCSR := newObj.(*certv1.CertificateSigningRequest)
	if oldCSR.ResourceVersion == newCSR.ResourceVersion {
		return // a resync
	}
	if newCSR.Spec.SignerName != "example.com/signer" {
		return
	}
	s.enqueue(newObj)
}

func (s *csrSigner) sync(ctx context.Context, name string) error {
	cached, err := s.lister.Get(name)
	if err != nil {
		return err
	}
	csr := cached.DeepCopy()
	if len(csr.Spec.Request) == 0 {
		s.fail(ctx, csr, "EmptyRequest")
		return nil
	}
	csr.Status.Conditions = append(csr.Status.Conditions, certv1.CertificateSigningRequestCondition{Type: certv1.CertificateApproved, Status: corev1.ConditionTrue})
	if _, err := s.cs.CertificatesV1().CertificateSigningRequests().UpdateStatus(ctx, csr, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "cannot approve", "csr", name)
	}
	return nil
}

// A helper given the object the sync read.
func (s *csrSigner) fail(ctx context.Context, csr *certv1.CertificateSigningRequest, reason string) {
	csr.Status.Conditions = append(csr.Status.Conditions, certv1.CertificateSigningRequestCondition{Type: certv1.CertificateFailed, Status: corev1.ConditionTrue, Reason: reason})
	if _, err := s.cs.CertificatesV1().CertificateSigningRequests().UpdateStatus(ctx, csr, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "cannot mark failed", "csr", csr.Name)
	}
}

// An informer whose UpdateFunc queues a claim only when its spec changed:
// a status write by another writer is no event for it, so a status write
// lost to that conflict is not written again.
type claimResizer struct {
	cs     kubernetes.Interface
	lister corelisters.PersistentVolumeClaimLister
	queue  workqueue.TypedRateLimitingInterface[string]
}

func newClaimResizer(cs kubernetes.Interface, factory informers.SharedInformerFactory) *claimResizer {
	claims := factory.Core().V1().PersistentVolumeClaims()
	r := &claimResizer{cs: cs, lister: claims.Lister(), queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	_, _ = claims.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj any) {
			oldPVC, newPVC := oldObj.(*corev1.PersistentVolumeClaim), newObj.(*corev1.PersistentVolumeClaim)
			if equality.Semantic.DeepEqual(oldPVC.Spec, newPVC.Spec) {
				return
			}
			if key, err := cache.MetaNamespaceKeyFunc(newObj); err == nil {
				r.queue.Add(key)
			}
		},
	})
	return r
}

func (r *claimResizer) sync(ctx context.Context, ns, name string) error {
	cached, err := r.lister.PersistentVolumeClaims(ns).Get(name)
	if err != nil {
		return err
	}
	pvc := cached.DeepCopy()
	pvc.Status.Conditions = append(pvc.Status.Conditions, corev1.PersistentVolumeClaimCondition{Type: corev1.PersistentVolumeClaimResizing, Status: corev1.ConditionTrue})
	if _, err := r.cs.CoreV1().PersistentVolumeClaims(ns).UpdateStatus(ctx, pvc, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: UpdateStatus of pvc is a read-modify-write`
		klog.ErrorS(err, "cannot mark resizing", "pvc", name)
	}
	return nil
}

// An UpdateFunc that hands both objects to a function of the package,
// which may compare them: the analysis does not follow it, and the status
// write stays reported.
type quotaSyncer struct {
	cs     kubernetes.Interface
	lister corelisters.ResourceQuotaLister
	queue  workqueue.TypedRateLimitingInterface[string]
}

func newQuotaSyncer(cs kubernetes.Interface, factory informers.SharedInformerFactory) *quotaSyncer {
	quotas := factory.Core().V1().ResourceQuotas()
	q := &quotaSyncer{cs: cs, lister: quotas.Lister(), queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	_, _ = quotas.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj any) { q.enqueueIfChanged(oldObj, newObj) },
	})
	return q
}

func (q *quotaSyncer) enqueueIfChanged(oldObj, newObj any) {
	if equality.Semantic.DeepEqual(oldObj.(*corev1.ResourceQuota).Spec, newObj.(*corev1.ResourceQuota).Spec) {
		return
	}
	if key, err := cache.MetaNamespaceKeyFunc(newObj); err == nil {
		q.queue.Add(key)
	}
}

func (q *quotaSyncer) sync(ctx context.Context, ns, name string) error {
	cached, err := q.lister.ResourceQuotas(ns).Get(name)
	if err != nil {
		return err
	}
	quota := cached.DeepCopy()
	quota.Status.Hard = quota.Spec.Hard
	if _, err := q.cs.CoreV1().ResourceQuotas(ns).UpdateStatus(ctx, quota, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: UpdateStatus of quota is a read-modify-write`
		klog.ErrorS(err, "cannot sync quota", "quota", name)
	}
	return nil
}

// A small controller without a work queue: its UpdateFunc runs the sync
// itself on every update. A status write lost to a conflict is followed by
// the conflicting write's event, which runs the sync again on the newer
// object.
type namespaceMarker struct {
	cs     kubernetes.Interface
	lister corelisters.NamespaceLister
}

func newNamespaceMarker(cs kubernetes.Interface, factory informers.SharedInformerFactory) *namespaceMarker {
	nss := factory.Core().V1().Namespaces()
	m := &namespaceMarker{cs: cs, lister: nss.Lister()}
	_, _ = nss.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { m.sync(obj.(*corev1.Namespace).Name) },
		UpdateFunc: func(oldObj, newObj any) {
			if key, err := cache.MetaNamespaceKeyFunc(newObj); err == nil {
				m.sync(key)
			}
		},
	})
	return m
}

func (m *namespaceMarker) sync(name string) {
	cached, err := m.lister.Get(name)
	if err != nil {
		return
	}
	ns := cached.DeepCopy()
	ns.Status.Conditions = append(ns.Status.Conditions, corev1.NamespaceCondition{Type: "example.com/Seen", Status: corev1.ConditionTrue})
	if _, err := m.cs.CoreV1().Namespaces().UpdateStatus(context.Background(), ns, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "cannot mark namespace", "namespace", name)
	}
}

// A write of the same type by a function the UpdateFunc does not run: the
// conflicting write's event runs sync, which does not redo what sweep
// changed.
func (m *namespaceMarker) sweep(ctx context.Context) {
	all, err := m.lister.List(labels.Everything())
	if err != nil {
		return
	}
	for _, cached := range all {
		ns := cached.DeepCopy()
		ns.Status.Conditions = nil
		if _, err := m.cs.CoreV1().Namespaces().UpdateStatus(ctx, ns, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: UpdateStatus of ns is a read-modify-write`
			klog.ErrorS(err, "cannot clear namespace conditions", "namespace", ns.Name)
		}
	}
}

// The controllers' workers run their sync handlers.
var _ = []any{newCSRSigner, (*csrSigner).sync, newClaimResizer, (*claimResizer).sync, newQuotaSyncer, (*quotaSyncer).sync, newNamespaceMarker, (*namespaceMarker).sweep}
