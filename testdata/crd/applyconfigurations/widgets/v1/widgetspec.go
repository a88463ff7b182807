// Hand-written imitation of applyconfiguration-gen output for the Widget custom
// resource (client-go v0.37.2 generation). Part of the lostupdate test corpus.

package v1

// WidgetSpecApplyConfiguration represents a declarative configuration of the WidgetSpec type for use
// with apply.
//
// WidgetSpec is the spec for a Widget resource.
type WidgetSpecApplyConfiguration struct {
	// Replicas is the desired number of replicas.
	Replicas *int32 `json:"replicas,omitempty"`
	// Image is the container image to run.
	Image *string `json:"image,omitempty"`
	// Labels are extra labels to put on the objects managed for this Widget.
	Labels map[string]string `json:"labels,omitempty"`
	// Ports are the ports to expose.
	Ports []int32 `json:"ports,omitempty"`
	// Paused stops reconciliation of this Widget.
	Paused *bool `json:"paused,omitempty"`
}

// WidgetSpecApplyConfiguration constructs a declarative configuration of the WidgetSpec type for use with
// apply.
func WidgetSpec() *WidgetSpecApplyConfiguration {
	return &WidgetSpecApplyConfiguration{}
}

// WithReplicas sets the Replicas field in the declarative configuration to the given value
// and returns the receiver, so that objects can be built by chaining "With" function invocations.
// If called multiple times, the Replicas field is set to the value of the last call.
func (b *WidgetSpecApplyConfiguration) WithReplicas(value int32) *WidgetSpecApplyConfiguration {
	b.Replicas = &value
	return b
}

// WithImage sets the Image field in the declarative configuration to the given value
// and returns the receiver, so that objects can be built by chaining "With" function invocations.
// If called multiple times, the Image field is set to the value of the last call.
func (b *WidgetSpecApplyConfiguration) WithImage(value string) *WidgetSpecApplyConfiguration {
	b.Image = &value
	return b
}

// WithLabels puts the entries into the Labels field in the declarative configuration
// and returns the receiver, so that objects can be build by chaining "With" function invocations.
// If called multiple times, the entries provided by each call will be put on the Labels field,
// overwriting an existing map entries in Labels field with the same key.
func (b *WidgetSpecApplyConfiguration) WithLabels(entries map[string]string) *WidgetSpecApplyConfiguration {
	if b.Labels == nil && len(entries) > 0 {
		b.Labels = make(map[string]string, len(entries))
	}
	for k, v := range entries {
		b.Labels[k] = v
	}
	return b
}

// WithPorts adds the given value to the Ports field in the declarative configuration
// and returns the receiver, so that objects can be build by chaining "With" function invocations.
// If called multiple times, values provided by each call will be appended to the Ports field.
func (b *WidgetSpecApplyConfiguration) WithPorts(values ...int32) *WidgetSpecApplyConfiguration {
	for i := range values {
		b.Ports = append(b.Ports, values[i])
	}
	return b
}

// WithPaused sets the Paused field in the declarative configuration to the given value
// and returns the receiver, so that objects can be built by chaining "With" function invocations.
// If called multiple times, the Paused field is set to the value of the last call.
func (b *WidgetSpecApplyConfiguration) WithPaused(value bool) *WidgetSpecApplyConfiguration {
	b.Paused = &value
	return b
}
