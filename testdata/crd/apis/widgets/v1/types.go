// Hand-written imitation of a Kubernetes API package for a custom resource.
// Part of the lostupdate test corpus.

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Widget is a specification for a Widget resource.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is the spec for a Widget resource.
type WidgetSpec struct {
	// Replicas is the desired number of replicas.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Image is the container image to run.
	Image string `json:"image"`
	// Labels are extra labels to put on the objects managed for this Widget.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Ports are the ports to expose.
	// +optional
	// +listType=atomic
	Ports []int32 `json:"ports,omitempty"`
	// Paused stops reconciliation of this Widget.
	// +optional
	Paused bool `json:"paused,omitempty"`
}

// WidgetStatus is the status for a Widget resource.
type WidgetStatus struct {
	// ObservedGeneration is the most recent generation observed by the controller.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Phase is a simple, high-level summary of the Widget's state.
	// +optional
	Phase string `json:"phase,omitempty"`
	// ReadyReplicas is the number of ready replicas.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// Conditions represent the latest available observations of the Widget's state.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WidgetList is a list of Widget resources.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`

	Items []Widget `json:"items"`
}
