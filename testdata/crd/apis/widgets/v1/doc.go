// Hand-written imitation of a Kubernetes API package for a custom resource, in
// the layout expected by k8s.io/code-generator. Part of the lostupdate test
// corpus; nothing in crd/ is generated.

// +k8s:deepcopy-gen=package
// +groupName=example.com
// +groupGoName=Widgets

// Package v1 is the v1 version of the example.com API group, which serves the
// Widget custom resource.
package v1
