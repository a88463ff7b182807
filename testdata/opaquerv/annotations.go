package opaquerv

import (
	"encoding/json"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

const lastSyncedAnnotation = "example.com/last-synced-resource-version"

// A controller records the version of the Secret it last synced in an
// annotation of the Deployment, and orders the two by parsing.
func badAnnotatedVersion(dep *appsv1.Deployment, secret *corev1.Secret) bool {
	synced, err := strconv.ParseUint(dep.Annotations[lastSyncedAnnotation], 10, 64) // want `^opaque-rv: strconv.ParseUint parses dep.Annotations\[lastSyncedAnnotation\] and secret.ResourceVersion as numbers to compare them`
	if err != nil {
		return true
	}
	cur, err := strconv.ParseUint(secret.ResourceVersion, 10, 64)
	if err != nil {
		return true
	}
	return cur > synced
}

// The same record compared for equality is the idiom.
func okAnnotatedVersionChanged(dep *appsv1.Deployment, secret *corev1.Secret) bool {
	return dep.Annotations[lastSyncedAnnotation] != secret.ResourceVersion
}

// Other annotations are parsed as numbers as they please.
func okParseReplicasAnnotation(dep *appsv1.Deployment) (int, error) {
	return strconv.Atoi(dep.Annotations["example.com/min-replicas"])
}

// json.Number parses too.
func badJSONNumberVersion(pod *corev1.Pod) int64 {
	n, _ := json.Number(pod.ResourceVersion).Int64() // want `^opaque-rv: json.Number.Int64 parses pod.ResourceVersion as a number`
	return n
}

// The functions above are run by the controller's workers.
var _ = []any{badAnnotatedVersion, badJSONNumberVersion}

// The functions above are run by the program's workers.
var _ = []any{okAnnotatedVersionChanged, okParseReplicasAnnotation}
