package patchbodies

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const restoreDone = "example.com/restore-done"

// The annotation is set from the restore Job, and the body reads it back
// from the PVC: the value sent is the Job's, not one computed from the PVC.
func okAnnotationReadBackAfterSet(ctx context.Context, c client.Client, pvc *corev1.PersistentVolumeClaim, job *batchv1.Job) error {
	if pvc.Annotations == nil {
		pvc.Annotations = map[string]string{}
	}
	pvc.Annotations[restoreDone] = job.GetAnnotations()[restoreDone]
	body := fmt.Sprintf(`{"metadata":{"annotations":{%q: %q}}}`, restoreDone, pvc.Annotations[restoreDone])
	return c.Patch(ctx, pvc, client.RawPatch(client.Merge.Type(), []byte(body)))
}

// The value set is computed from the one read, so reading it back still
// sends a read-modify-write.
func badAnnotationAppendedThenReadBack(ctx context.Context, c client.Client, pvc *corev1.PersistentVolumeClaim, job *batchv1.Job) error {
	pvc.Annotations[restoreDone] = pvc.Annotations[restoreDone] + "," + job.Name
	body := fmt.Sprintf(`{"metadata":{"annotations":{%q: %q}}}`, restoreDone, pvc.Annotations[restoreDone])
	return c.Patch(ctx, pvc, client.RawPatch(client.Merge.Type(), []byte(body))) // want `^unconditional-patch: Patch of pvc sends a patch without a precondition, and its body sets metadata.annotations`
}

// The functions above are run by the controller's workers.
var _ = []any{badAnnotationAppendedThenReadBack}

// The functions above are run by the program's workers.
var _ = []any{okAnnotationReadBackAfterSet}
