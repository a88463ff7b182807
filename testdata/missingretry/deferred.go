package missingretry

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A port allocator that keeps the ConfigMap it last read and, when an
// Update of it conflicts, refreshes that copy in a deferred closure: the
// error is still returned, so the conflict reaches the caller (whose
// reconcile is requeued) and the next attempt starts from the refreshed copy.
type portBook struct {
	cli client.Client
	cm  *corev1.ConfigMap
}

func (b *portBook) resync(ctx context.Context) error {
	cm := &corev1.ConfigMap{}
	if err := b.cli.Get(ctx, client.ObjectKeyFromObject(b.cm), cm); err != nil {
		return err
	}
	b.cm = cm
	return nil
}

// reserve returns the Update's error; the deferred conflict test only
// refreshes the copy: not reported.
func (b *portBook) reserve(ctx context.Context, key string, port int32) error {
	var err error
	defer func() {
		if apierrors.IsConflict(err) {
			_ = b.resync(ctx)
		}
	}()
	cm := b.cm.DeepCopy()
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data[key] = fmt.Sprint(port)
	if err = b.cli.Update(ctx, cm); err != nil {
		return err
	}
	b.cm = cm
	return nil
}

// release, the positive control, clears its named result in the deferred
// closure when the Update conflicts: the caller is told it succeeded.
func (b *portBook) release(ctx context.Context, key string) (err error) {
	defer func() {
		if apierrors.IsConflict(err) {
			_ = b.resync(ctx)
			err = nil
		}
	}()
	cm := b.cm.DeepCopy()
	delete(cm.Data, key)
	if err = b.cli.Update(ctx, cm); err != nil { // want "^missing-retry: Update of cm is a read-modify-write .*conflict is caught and ignored"
		return err
	}
	b.cm = cm
	return nil
}

// Reserve and Release are how the controllers call them.
func (b *portBook) Reserve(ctx context.Context, key string, port int32) error {
	return b.reserve(ctx, key, port)
}

func (b *portBook) Release(ctx context.Context, key string) error {
	return b.release(ctx, key)
}

// annotate picks the next attempt's delay in a deferred closure over its
// named results: a conflict gets a short delay and keeps the error, which
// the caller returns (a requeue); only NotFound clears it.
func (b *portBook) annotate(ctx context.Context, key, value string) (retry time.Duration, err error) {
	defer func() {
		if err != nil {
			if apierrors.IsNotFound(err) {
				retry, err = time.Hour, nil
			} else if apierrors.IsConflict(err) {
				retry = 200 * time.Millisecond
			} else {
				retry = 5 * time.Second
			}
		} else {
			retry = time.Hour
		}
	}()
	cm := b.cm.DeepCopy()
	cm.Annotations[key] = value
	err = b.cli.Update(ctx, cm)
	return
}

// The control: the conflict branch clears the error too, so the caller is
// told the annotation was written.
func (b *portBook) annotateOrForget(ctx context.Context, key, value string) (retry time.Duration, err error) {
	defer func() {
		if err != nil {
			if apierrors.IsNotFound(err) {
				retry, err = time.Hour, nil
			} else if apierrors.IsConflict(err) {
				retry, err = 200*time.Millisecond, nil
			}
		}
	}()
	cm := b.cm.DeepCopy()
	cm.Annotations[key] = value
	err = b.cli.Update(ctx, cm) // want "^missing-retry: Update of cm is a read-modify-write .*conflict is caught and ignored"
	return
}

// Annotate is how the controllers call them.
func (b *portBook) Annotate(ctx context.Context, key, value string) (time.Duration, error) {
	if d, err := b.annotate(ctx, key, value); err != nil {
		return d, err
	}
	return b.annotateOrForget(ctx, key+"-seen", value)
}
