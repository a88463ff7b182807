package unconditionalupdate

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/workqueue"
)

// Bytes that come to the function from elsewhere (an item of a work queue,
// a message received on a channel, the body of an HTTP request) hold an
// object serialized by whoever sent it: one read from the API server keeps
// its resourceVersion through the round trip, so the PUT of the decoded
// object may well be conditional. The analysis cannot tell: not reported.
// Bytes of a manifest (manifest.go) are still reported.

// A worker pops the claims its event handler queued as JSON.
type claimWorker struct {
	queue workqueue.Interface
	cs    kubernetes.Interface
}

func (w *claimWorker) enqueue(pvc *corev1.PersistentVolumeClaim) {
	b, err := json.Marshal(pvc)
	if err != nil {
		return
	}
	w.queue.Add(string(b))
}

func (w *claimWorker) next() (string, bool) {
	item, shutdown := w.queue.Get()
	if shutdown {
		return "", true
	}
	return item.(string), false
}

func (w *claimWorker) okLabelQueuedClaim(ctx context.Context) error {
	s, shutdown := w.next()
	if shutdown {
		return nil
	}
	defer w.queue.Done(s)
	pvc := &corev1.PersistentVolumeClaim{}
	if err := json.Unmarshal([]byte(s), pvc); err != nil {
		return err
	}
	if pvc.Labels == nil {
		pvc.Labels = map[string]string{}
	}
	pvc.Labels["example.com/resized"] = "true"
	_, err := w.cs.CoreV1().PersistentVolumeClaims(pvc.Namespace).Update(ctx, pvc, metav1.UpdateOptions{})
	return err
}

// An edge proxy forwards the lease updates its nodes send as messages, and
// answers each with the result.
type leaseMessage struct {
	id      string
	content []byte
}

type leaseReply struct {
	id  string
	err error
}

func (m *leaseMessage) ContentData() ([]byte, error) { return m.content, nil }

func okForwardLeaseMessages(ctx context.Context, cs kubernetes.Interface, msgs <-chan leaseMessage, replies chan<- leaseReply) {
	for {
		select {
		case <-ctx.Done():
			return
		case msg := <-msgs:
			data, err := msg.ContentData()
			if err != nil {
				continue
			}
			lease := &corev1.ConfigMap{}
			if err := json.Unmarshal(data, lease); err != nil {
				continue
			}
			_, err = cs.CoreV1().ConfigMaps(lease.Namespace).Update(ctx, lease, metav1.UpdateOptions{})
			replies <- leaseReply{id: msg.id, err: err}
		}
	}
}

// A webhook-style endpoint applies the object its client sent.
func okUpdateFromRequestBody(cs kubernetes.Interface) http.HandlerFunc {
	return func(rw http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			rw.WriteHeader(http.StatusBadRequest)
			return
		}
		var cm corev1.ConfigMap
		if err := json.Unmarshal(body, &cm); err != nil {
			rw.WriteHeader(http.StatusBadRequest)
			return
		}
		if _, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(req.Context(), &cm, metav1.UpdateOptions{}); err != nil {
			rw.WriteHeader(http.StatusConflict)
		}
	}
}

// The control: the worker decodes its own template, not what was queued.
const claimTemplate = `{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"scratch","namespace":"default"}}`

func (w *claimWorker) badResetQueuedClaim(ctx context.Context) error {
	s, shutdown := w.next()
	if shutdown {
		return nil
	}
	defer w.queue.Done(s)
	pvc := &corev1.PersistentVolumeClaim{}
	if err := json.Unmarshal([]byte(claimTemplate), pvc); err != nil {
		return err
	}
	_, err := w.cs.CoreV1().PersistentVolumeClaims(pvc.Namespace).Update(ctx, pvc, metav1.UpdateOptions{}) // want "^unconditional-update: .*decoded"
	return err
}

// The functions above are run by the program's workers.
var _ = []any{(*claimWorker).enqueue, (*claimWorker).okLabelQueuedClaim, (*claimWorker).badResetQueuedClaim, okForwardLeaseMessages, okUpdateFromRequestBody}
