package missingretry

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A job's command that resolves an image for a ConfigMap and, when it
// fails, records the failure on it in a deferred closure that runs only
// when the command returns an error. The write's error is only logged, but
// the command fails anyway: the Job runs it again, and that run reads the
// ConfigMap again.
type imageResolver struct {
	c   client.Client
	key client.ObjectKey
}

func (o *imageResolver) Run(ctx context.Context) (returnErr error) {
	cm := &corev1.ConfigMap{}
	if err := o.c.Get(ctx, o.key, cm); err != nil {
		return err
	}
	defer func() {
		if returnErr == nil {
			return
		}
		o.recordFailure(ctx, cm, returnErr)
	}()
	image, ok := cm.Data["release"]
	if !ok {
		return errors.New("no release image")
	}
	cm.Data["image"] = image
	return o.c.Update(ctx, cm)
}

func (o *imageResolver) recordFailure(ctx context.Context, cm *corev1.ConfigMap, err error) {
	cm.Data["error"] = err.Error()
	if err := o.c.Update(ctx, cm); err != nil {
		klog.ErrorS(err, "cannot record the failure")
	}
}

// The same record written in place in the closure.
func (o *imageResolver) RunInline(ctx context.Context) (returnErr error) {
	cm := &corev1.ConfigMap{}
	if err := o.c.Get(ctx, o.key, cm); err != nil {
		return err
	}
	defer func() {
		if returnErr != nil {
			cm.Data["error"] = returnErr.Error()
			_ = o.c.Update(ctx, cm)
		}
	}()
	if _, ok := cm.Data["release"]; !ok {
		return errors.New("no release image")
	}
	return nil
}

// The control: the closure records the failure and then clears the
// error, so the command succeeds and nothing redoes the lost write.
func (o *imageResolver) RunForgiving(ctx context.Context) (returnErr error) {
	cm := &corev1.ConfigMap{}
	if err := o.c.Get(ctx, o.key, cm); err != nil {
		return err
	}
	defer func() {
		if returnErr == nil {
			return
		}
		o.recordOnce(ctx, cm, returnErr)
		returnErr = nil
	}()
	if _, ok := cm.Data["release"]; !ok {
		return errors.New("no release image")
	}
	return nil
}

func (o *imageResolver) recordOnce(ctx context.Context, cm *corev1.ConfigMap, err error) {
	cm.Data["error"] = err.Error()
	if err := o.c.Update(ctx, cm); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
		klog.ErrorS(err, "cannot record the failure")
	}
}

// The control: the closure runs on success too, after the command's
// Update, and the command then returns nil.
func (o *imageResolver) RunAlways(ctx context.Context) (returnErr error) {
	cm := &corev1.ConfigMap{}
	if err := o.c.Get(ctx, o.key, cm); err != nil {
		return err
	}
	defer func() {
		cm.Data["resolved"] = "true"
		_ = o.c.Update(ctx, cm) // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is dropped\)`
	}()
	if _, ok := cm.Data["release"]; !ok {
		return errors.New("no release image")
	}
	return nil
}
