// Hand-written imitation of applyconfiguration-gen output for the Widget custom
// resource (client-go v0.37.2 generation). Part of the lostupdate test corpus.

package v1

import (
	metav1 "k8s.io/client-go/applyconfigurations/meta/v1"
)

// WidgetStatusApplyConfiguration represents a declarative configuration of the WidgetStatus type for use
// with apply.
//
// WidgetStatus is the status for a Widget resource.
type WidgetStatusApplyConfiguration struct {
	// ObservedGeneration is the most recent generation observed by the controller.
	ObservedGeneration *int64 `json:"observedGeneration,omitempty"`
	// Phase is a simple, high-level summary of the Widget's state.
	Phase *string `json:"phase,omitempty"`
	// ReadyReplicas is the number of ready replicas.
	ReadyReplicas *int32 `json:"readyReplicas,omitempty"`
	// Conditions represent the latest available observations of the Widget's state.
	Conditions []metav1.ConditionApplyConfiguration `json:"conditions,omitempty"`
}

// WidgetStatusApplyConfiguration constructs a declarative configuration of the WidgetStatus type for use with
// apply.
func WidgetStatus() *WidgetStatusApplyConfiguration {
	return &WidgetStatusApplyConfiguration{}
}

// WithObservedGeneration sets the ObservedGeneration field in the declarative configuration to the given value
// and returns the receiver, so that objects can be built by chaining "With" function invocations.
// If called multiple times, the ObservedGeneration field is set to the value of the last call.
func (b *WidgetStatusApplyConfiguration) WithObservedGeneration(value int64) *WidgetStatusApplyConfiguration {
	b.ObservedGeneration = &value
	return b
}

// WithPhase sets the Phase field in the declarative configuration to the given value
// and returns the receiver, so that objects can be built by chaining "With" function invocations.
// If called multiple times, the Phase field is set to the value of the last call.
func (b *WidgetStatusApplyConfiguration) WithPhase(value string) *WidgetStatusApplyConfiguration {
	b.Phase = &value
	return b
}

// WithReadyReplicas sets the ReadyReplicas field in the declarative configuration to the given value
// and returns the receiver, so that objects can be built by chaining "With" function invocations.
// If called multiple times, the ReadyReplicas field is set to the value of the last call.
func (b *WidgetStatusApplyConfiguration) WithReadyReplicas(value int32) *WidgetStatusApplyConfiguration {
	b.ReadyReplicas = &value
	return b
}

// WithConditions adds the given value to the Conditions field in the declarative configuration
// and returns the receiver, so that objects can be build by chaining "With" function invocations.
// If called multiple times, values provided by each call will be appended to the Conditions field.
func (b *WidgetStatusApplyConfiguration) WithConditions(values ...*metav1.ConditionApplyConfiguration) *WidgetStatusApplyConfiguration {
	for i := range values {
		if values[i] == nil {
			panic("nil value passed to WithConditions")
		}
		b.Conditions = append(b.Conditions, *values[i])
	}
	return b
}
