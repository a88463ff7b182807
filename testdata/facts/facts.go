package facts // want package:"has summaries"

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// GetDeployment is a typed read.
func GetDeployment(ctx context.Context, cs kubernetes.Interface, ns, name string) (*appsv1.Deployment, error) { // want GetDeployment:"returns read #0"
	return cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
}

// LatestCopy reads and returns a copy.
func LatestCopy(ctx context.Context, c client.Client, key client.ObjectKey) (*corev1.ConfigMap, error) { // want LatestCopy:"returns read #0"
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, cm); err != nil {
		return nil, err
	}
	return cm.DeepCopy(), nil
}

// NewConfigMap builds an object from scratch.
func NewConfigMap(ns, name string, data map[string]string) *corev1.ConfigMap { // want NewConfigMap:"returns constructed #0"
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Data:       data,
	}
}

// Fetch reads into the object it is given.
func Fetch(ctx context.Context, c client.Client, key client.ObjectKey, obj client.Object) error { // want Fetch:"reads into #3"
	return c.Get(ctx, key, obj)
}

// Save writes its argument as passed and returns the error.
func Save(ctx context.Context, c client.Client, obj client.Object) error { // want Save:"writes #2 with update returning its error"
	if err := c.Update(ctx, obj); err != nil {
		return fmt.Errorf("saving %s: %w", obj.GetName(), err)
	}
	return nil
}

// SaveInRetry writes its argument inside its own retry (a stale one, reported here).
func SaveInRetry(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error { // want SaveInRetry:"writes #2 with update in retry"
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "^stale-retry: Update inside retry.RetryOnConflict writes cm"
		return err
	})
}

// OnConflict runs fn in a conflict retry.
func OnConflict(fn func() error) error { // want OnConflict:"retries #0 on conflict"
	return retry.RetryOnConflict(retry.DefaultBackoff, fn)
}

// Client wraps the controller-runtime client; its methods have facts too.
type Client struct{ c client.Client }

// UpdateObject writes its argument; the receiver counts as #0.
func (k *Client) UpdateObject(ctx context.Context, obj client.Object) error { // want UpdateObject:"writes #2 with update returning its error"
	return k.c.Update(ctx, obj)
}

// Retry runs fn until it stops conflicting, by hand.
func (k *Client) Retry(ctx context.Context, fn func(context.Context) error) error { // want Retry:"retries #2 on conflict"
	var err error
	for i := 0; i < 5; i++ {
		if err = fn(ctx); err == nil || !isConflict(err) {
			return err
		}
	}
	return err
}

func isConflict(err error) bool { return apierrors.IsConflict(err) }

// IsRetryable tests for a conflict (or a timeout).
func IsRetryable(err error) bool { // want IsRetryable:"tests for conflict"
	return apierrors.IsConflict(err) || apierrors.IsServerTimeout(err)
}

// Unrelated has nothing to summarise.
func Unrelated(a, b int) int { return a + b }

// WithoutString returns the list without s: a part of the list, whatever
// it is of.
func WithoutString(list []string, s string) (result []string) { // want WithoutString:"returns a part of #0"
	for _, item := range list {
		if item == s {
			continue
		}
		result = append(result, item)
	}
	return
}
