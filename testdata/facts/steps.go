package facts

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// A chain of handlers for the controllers of other packages: each step
// records its outcome on the object it is given and writes it, logging a
// failure, and the chain runs its steps through an interface. After a
// conflict the object keeps the version it was read at, so what becomes
// of the failure is for the callers of Chain.Serve to decide (a caller
// that writes the same object afterwards and returns that write's error
// fails too): nothing is reported here, and Chain.Serve's fact says the
// error is lost.

// Step is one step of a Chain; the steps share a State.
type Step interface {
	Serve(ctx context.Context, cm *corev1.ConfigMap, st *State) error
}

// State is what the steps of a chain pass on to the next.
type State struct {
	Mode string
}

// Chain runs its steps in order and stops at the first that fails.
type Chain struct {
	steps []Step
}

// NewChain returns the chain of the package's steps.
func NewChain(c client.Client) *Chain {
	return &Chain{steps: []Step{&ModeStep{Client: c}}}
}

// Serve runs the steps.
func (ch *Chain) Serve(ctx context.Context, cm *corev1.ConfigMap) error { // want Serve:"writes #2 with update losing its error"
	st := &State{}
	for _, s := range ch.steps {
		if err := s.Serve(ctx, cm, st); err != nil {
			return fmt.Errorf("step failed: %w", err)
		}
	}
	return nil
}

// ModeStep checks the mode and records whether it is set.
type ModeStep struct {
	Client client.Client
}

func (s *ModeStep) Serve(ctx context.Context, cm *corev1.ConfigMap, st *State) error { // want Serve:"writes #2 with update losing its error"
	if cm.Data["mode"] == "" {
		s.record(ctx, cm, "NoMode")
		return errInvalid
	}
	st.Mode = cm.Data["mode"]
	s.record(ctx, cm, "ModeSet")
	return nil
}

func (s *ModeStep) record(ctx context.Context, cm *corev1.ConfigMap, reason string) {
	if err := SetReason(ctx, s.Client, cm, reason); err != nil {
		logf.FromContext(ctx).Error(err, "cannot record the reason")
	}
}

// SetReason writes the reason onto the object when it changes, and
// returns the write's error.
func SetReason(ctx context.Context, c client.Client, cm *corev1.ConfigMap, reason string) error { // want SetReason:"writes #2 with update returning its error"
	if cm.Annotations["example.com/reason"] == reason {
		return nil
	}
	cm.Annotations["example.com/reason"] = reason
	if err := c.Update(ctx, cm); err != nil {
		return fmt.Errorf("cannot set reason %s: %w", reason, err)
	}
	return nil
}

// The same shape where the package itself goes on after the chain: the
// checks of a Checks run through an interface too, but RunChecks, which
// lists the ConfigMaps itself, goes on after each run, so a check's lost
// write is lost here and reported here.

// Check is one check of Checks.
type Check interface {
	Check(ctx context.Context, cm *corev1.ConfigMap) error
}

// Checks runs its checks in order.
type Checks struct {
	checks []Check
}

func (cs *Checks) Run(ctx context.Context, cm *corev1.ConfigMap) error {
	for _, ch := range cs.checks {
		if err := ch.Check(ctx, cm); err != nil {
			return err
		}
	}
	return nil
}

// OwnerCheck records whether the object has an owner.
type OwnerCheck struct {
	Client client.Client
}

func (o *OwnerCheck) Check(ctx context.Context, cm *corev1.ConfigMap) error { // want Check:"writes #2 with update$"
	if len(cm.OwnerReferences) == 0 {
		if err := SetReason(ctx, o.Client, cm, "NoOwner"); err != nil { // want `^missing-retry: SetReason of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
			logf.FromContext(ctx).Error(err, "cannot record the reason")
		}
	}
	return nil
}

// RunChecks lists the ConfigMaps and runs the checks on each, going on
// whatever they did.
func RunChecks(ctx context.Context, c client.Client, ns string) {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return
	}
	cs := &Checks{checks: []Check{&OwnerCheck{Client: c}}}
	for i := range list.Items {
		if err := cs.Run(ctx, &list.Items[i]); err != nil {
			logf.FromContext(ctx).Error(err, "check failed")
		}
	}
}
