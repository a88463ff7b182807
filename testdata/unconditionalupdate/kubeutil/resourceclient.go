package kubeutil

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ResourceClient is a typed client of one resource over the dynamic client,
// as operators with a CLI or a dashboard next to their controllers keep.
type ResourceClient[T client.Object] interface {
	List(ctx context.Context, namespace string, list client.ObjectList, opts metav1.ListOptions) error
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
}

// Defaulter fills in the defaults of an object's spec.
type Defaulter interface {
	Default(obj client.Object)
}

func NewResourceClient[T client.Object](c dynamic.NamespaceableResourceInterface) ResourceClient[T] {
	return dynamicResourceClient[T]{client: c}
}

type dynamicResourceClient[T client.Object] struct {
	client dynamic.NamespaceableResourceInterface
}

func (c dynamicResourceClient[T]) List(ctx context.Context, namespace string, list client.ObjectList, opts metav1.ListOptions) error {
	obj, err := c.client.Namespace(namespace).List(ctx, opts)
	if err != nil {
		return err
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(obj.UnstructuredContent(), list)
}

func (c dynamicResourceClient[T]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return *new(T), err
	}
	res, err := c.client.Namespace(obj.GetNamespace()).Update(ctx, &unstructured.Unstructured{Object: u}, opts)
	if err != nil {
		return *new(T), err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(res.UnstructuredContent(), obj); err != nil {
		return *new(T), err
	}
	return obj, nil
}
