// Package typeerror does not compile: lostupdate must report the type error
// the way every go/analysis tool does, and not crash.
package typeerror

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func update(ctx context.Context, c client.Client) error {
	pod := &corev1.Pod{}
	pod.Spec.NoSuchField = "x"
	return c.Update(ctx, pod, undefinedOption)
}

// The functions above are run by the program's workers.
var _ = []any{update}
