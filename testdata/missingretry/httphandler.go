package missingretry

import (
	"fmt"
	"log"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// A scaling endpoint: a failed Update is logged and answered with a 500,
// which tells the HTTP caller (a gateway, a CLI) that the change did not
// happen, and the caller may try again. The error is handed on.
func makeScaler(cs kubernetes.Interface, ns string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("name")
		d, err := cs.AppsV1().Deployments(ns).Get(r.Context(), name, metav1.GetOptions{})
		if err != nil {
			http.Error(w, "lookup failed", http.StatusNotFound)
			return
		}
		replicas := int32(3)
		d.Spec.Replicas = &replicas
		if _, err := cs.AppsV1().Deployments(ns).Update(r.Context(), d, metav1.UpdateOptions{}); err != nil {
			log.Printf("cannot scale %s: %v", name, err)
			http.Error(w, fmt.Sprintf("cannot scale %s", name), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}
}

// The same with the status written by hand.
func makePauser(cs kubernetes.Interface, ns string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("name")
		d, err := cs.AppsV1().Deployments(ns).Get(r.Context(), name, metav1.GetOptions{})
		if err != nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		d.Spec.Paused = true
		if _, err := cs.AppsV1().Deployments(ns).Update(r.Context(), d, metav1.UpdateOptions{}); err != nil {
			log.Printf("cannot pause %s: %v", name, err)
			w.WriteHeader(http.StatusConflict)
			return
		}
		w.WriteHeader(http.StatusOK)
	}
}

// The control: the failure is logged and the caller is told it worked.
func makeResumer(cs kubernetes.Interface, ns string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("name")
		d, err := cs.AppsV1().Deployments(ns).Get(r.Context(), name, metav1.GetOptions{})
		if err != nil {
			http.Error(w, "lookup failed", http.StatusNotFound)
			return
		}
		d.Spec.Paused = false
		if _, err := cs.AppsV1().Deployments(ns).Update(r.Context(), d, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of d is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\), .*; answer the request with an error status \(http\.Error\)`
			log.Printf("cannot resume %s: %v", name, err)
		}
		w.WriteHeader(http.StatusAccepted)
	}
}

var _ = []any{makeScaler, makePauser, makeResumer}
