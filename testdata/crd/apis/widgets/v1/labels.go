// Hand-written imitation of a Kubernetes API package for a custom resource.
// Part of the lostupdate test corpus.

package v1

// AddLabelValue appends v to the comma-separated value of the extra label
// key, as API packages' status helpers add to a map entry they read.
func (w *Widget) AddLabelValue(key, v string) {
	s := w.Spec.Labels[key]
	if s != "" {
		s += ","
	}
	w.Spec.Labels[key] = s + v
}
