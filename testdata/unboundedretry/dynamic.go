package unboundedretry

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

var kafkaTopicGVR = schema.GroupVersionResource{Group: "kafka.strimzi.io", Version: "v1beta2", Resource: "kafkatopics"}

// A topic tool bumps the partitions of an unstructured KafkaTopic in a loop
// with no bound and no wait.
func badDynamicForeverLoop(ctx context.Context, dc dynamic.Interface, ns, name string, partitions int64) error {
	for {
		topic, err := dc.Resource(kafkaTopicGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(topic.Object, partitions, "spec", "partitions"); err != nil {
			return err
		}
		_, err = dc.Resource(kafkaTopicGVR).Namespace(ns).Update(ctx, topic, metav1.UpdateOptions{}) // want "^unbounded-retry: "
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

// The same edit with retry.OnError on conflicts and a bounded backoff.
func okDynamicOnErrorConflict(ctx context.Context, dc dynamic.Interface, ns, name string, partitions int64) error {
	return retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
		topic, err := dc.Resource(kafkaTopicGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(topic.Object, partitions, "spec", "partitions"); err != nil {
			return err
		}
		_, err = dc.Resource(kafkaTopicGVR).Namespace(ns).Update(ctx, topic, metav1.UpdateOptions{})
		return err
	})
}

// A counted dynamic status loop that sleeps after each conflict.
func okDynamicCountedLoopWithSleep(ctx context.Context, dc dynamic.Interface, ns, name string) error {
	var err error
	for i := 0; i < 3; i++ {
		var topic *unstructured.Unstructured
		topic, err = dc.Resource(kafkaTopicGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(topic.Object, "Ready", "status", "phase"); err != nil {
			return err
		}
		_, err = dc.Resource(kafkaTopicGVR).Namespace(ns).UpdateStatus(ctx, topic, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badDynamicForeverLoop}

// The functions above are run by the program's workers.
var _ = []any{okDynamicCountedLoopWithSleep, okDynamicOnErrorConflict}
