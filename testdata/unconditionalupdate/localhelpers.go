package unconditionalupdate

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// A helper of the package that scales its argument down, as e2e suites
// do: every call gives it an object built without a resourceVersion, so
// the write is reported once, in the helper, not at each call.

func buildRC(ns, name string, replicas int32) *corev1.ReplicationController {
	return &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       corev1.ReplicationControllerSpec{Replicas: ptr.To(replicas)},
	}
}

func scaleDownRC(ctx context.Context, cs kubernetes.Interface, rc *corev1.ReplicationController) error {
	rcCopy := rc.DeepCopy()
	rcCopy.Spec.Replicas = ptr.To[int32](0)
	if _, err := cs.CoreV1().ReplicationControllers(rcCopy.Namespace).Update(ctx, rcCopy, metav1.UpdateOptions{}); err != nil { // want `^unconditional-update: Update \(in scaleDownRC\) writes rcCopy, which each of the 2 calls of scaleDownRC in the package passes built without a resourceVersion`
		return fmt.Errorf("scaling %s down: %w", rc.Name, err)
	}
	return nil
}

func scaleDownWeb(ctx context.Context, cs kubernetes.Interface, ns string) error {
	rc := buildRC(ns, "web", 3)
	if _, err := cs.CoreV1().ReplicationControllers(ns).Create(ctx, rc, metav1.CreateOptions{}); err != nil {
		return err
	}
	return scaleDownRC(ctx, cs, rc)
}

func scaleDownWorker(ctx context.Context, cs kubernetes.Interface, ns string) error {
	return scaleDownRC(ctx, cs, buildRC(ns, "worker", 2))
}

// The control: a helper that one call gives a read object and another a
// built one is reported at the call that passes the built object.

func pauseRC(ctx context.Context, cs kubernetes.Interface, rc *corev1.ReplicationController) error {
	rc = rc.DeepCopy()
	rc.Spec.Replicas = ptr.To[int32](0)
	_, err := cs.CoreV1().ReplicationControllers(rc.Namespace).Update(ctx, rc, metav1.UpdateOptions{})
	return err
}

func pauseLiveRC(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	rc, err := cs.CoreV1().ReplicationControllers(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return pauseRC(ctx, cs, rc)
}

func pauseBuiltRC(ctx context.Context, cs kubernetes.Interface, ns string) error {
	return pauseRC(ctx, cs, buildRC(ns, "batch", 1)) // want `^unconditional-update: pauseRC updates buildRC\(ns, "batch", 1\), which is built by buildRC without a resourceVersion, .*copy the resourceVersion you read into the object built here$`
}

// The functions above are run by the controller's workers.
var _ = []any{pauseBuiltRC, scaleDownWeb, scaleDownWorker}

// The functions above are run by the program's workers.
var _ = []any{pauseLiveRC}
