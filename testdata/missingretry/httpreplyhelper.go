package missingretry

import (
	"encoding/json"
	"log"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// An API server's handlers answer through the package's own reply
// helpers: writeAPIError passes its status on to writeAPIJSON, which
// writes it with WriteHeader. A failed Update answered with
// writeAPIError(w, http.StatusInternalServerError, ...) tells the HTTP
// caller, who may try again: the error is handed on.

type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func writeAPIJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func writeAPIError(w http.ResponseWriter, status int, e apiError) {
	if status >= 500 {
		log.Printf("internal error: %s", e.Message)
	}
	writeAPIJSON(w, status, e)
}

type apiServer struct {
	cs kubernetes.Interface
	ns string
}

// reject answers a webhook delivery with an error status; the sender
// delivers it again.
func (s *apiServer) reject(w http.ResponseWriter, code int, msg string) {
	log.Printf("rejecting delivery: %s", msg)
	http.Error(w, msg, code)
}

func (s *apiServer) relabel(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	cm, err := s.cs.CoreV1().ConfigMaps(s.ns).Get(r.Context(), name, metav1.GetOptions{})
	if err != nil {
		writeAPIError(w, http.StatusNotFound, apiError{Code: "not_found", Message: err.Error()})
		return
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["team"] = r.URL.Query().Get("team")
	if _, err := s.cs.CoreV1().ConfigMaps(s.ns).Update(r.Context(), cm, metav1.UpdateOptions{}); err != nil {
		log.Printf("cannot relabel %s: %v", name, err)
		writeAPIError(w, http.StatusInternalServerError, apiError{Code: "internal_error", Message: "cannot relabel"})
		return
	}
	writeAPIJSON(w, http.StatusOK, cm.Labels)
}

func (s *apiServer) push(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("repo")
	cm, err := s.cs.CoreV1().ConfigMaps(s.ns).Get(r.Context(), name, metav1.GetOptions{})
	if err != nil {
		s.reject(w, http.StatusNotFound, "unknown repository")
		return
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["last-push"] = r.Header.Get("X-Delivery")
	if _, err := s.cs.CoreV1().ConfigMaps(s.ns).Update(r.Context(), cm, metav1.UpdateOptions{}); err != nil {
		s.reject(w, http.StatusInternalServerError, "cannot record the push")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// The control: the same helper, but the failure is answered with a
// success status.
func (s *apiServer) retag(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	cm, err := s.cs.CoreV1().ConfigMaps(s.ns).Get(r.Context(), name, metav1.GetOptions{})
	if err != nil {
		writeAPIError(w, http.StatusNotFound, apiError{Code: "not_found", Message: err.Error()})
		return
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["tag"] = r.URL.Query().Get("tag")
	if _, err := s.cs.CoreV1().ConfigMaps(s.ns).Update(r.Context(), cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		log.Printf("cannot retag %s: %v", name, err)
		writeAPIJSON(w, http.StatusOK, apiError{Code: "partial", Message: "tag not saved"})
		return
	}
	writeAPIJSON(w, http.StatusOK, cm.Labels)
}

var _ = []any{(*apiServer).relabel, (*apiServer).push, (*apiServer).retag}
