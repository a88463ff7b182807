package unconditionalpatch

import (
	"context"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"lostupdate.test/unconditionalpatch/patchutil"
)

// Provenance of a patched value: a value computed from the value it
// replaces (or from the list or map that holds it) is a read-modify-write;
// a value the controller decides, looked up by another field of the object
// or copied from one, is a desired-state write.

type scaling struct {
	parallelism *int32
	completions *int32
}

// JobScaler sets each child Job's parallelism to the desired value of its
// replicated job, looked up by the Job's label: desired state, not a
// modification of what was read.
type JobScaler struct {
	client.Client
}

func (r *JobScaler) scale(ctx context.Context, jobs []*batchv1.Job, desired map[string]scaling) error {
	for _, job := range jobs {
		name, ok := job.Labels["example.com/replicated-job"]
		if !ok {
			continue
		}
		d, ok := desired[name]
		if !ok {
			continue
		}
		patch := client.MergeFrom(job.DeepCopy())
		job.Spec.Parallelism = d.parallelism
		job.Spec.Completions = d.completions
		if err := r.Patch(ctx, job, patch); err != nil {
			return err
		}
	}
	return nil
}

// scaleUp is the positive control: the new parallelism is computed from the
// parallelism read.
func (r *JobScaler) scaleUp(ctx context.Context, job *batchv1.Job) error {
	if job.Spec.Parallelism == nil {
		return nil
	}
	patch := client.MergeFrom(job.DeepCopy())
	n := *job.Spec.Parallelism + 1
	job.Spec.Parallelism = &n
	return r.Patch(ctx, job, patch) // want "^unconditional-patch: Patch of job .*spec.parallelism of job is set from a value read from it"
}

// CompletionsFromStatus copies a value from another field of the object:
// a desired-state write.
type CompletionsFromStatus struct {
	client.Client
}

func (r *CompletionsFromStatus) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var job batchv1.Job
	if err := r.Get(ctx, req.NamespacedName, &job); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := job.DeepCopy()
	succeeded := job.Status.Succeeded
	job.Spec.Completions = &succeeded
	return ctrl.Result{}, r.Patch(ctx, &job, client.MergeFrom(base))
}

// ListenerBundle joins a listener into a comma-separated annotation: the
// new value is computed from the value it replaces, so a listener another
// writer added meanwhile is dropped.
type ListenerBundle struct {
	client.Client
	Listener string
}

func (r *ListenerBundle) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := cm.DeepCopy()
	const key = "example.com/listeners"
	cm.Annotations[key] = strings.Join(append(strings.Split(cm.Annotations[key], ","), r.Listener), ",")
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*annotations of cm is set from a value read from it"
}

// AnnotationMover moves a value within the annotations map: a map value
// updated from the same map.
type AnnotationMover struct {
	client.Client
}

func (r *AnnotationMover) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := cm.DeepCopy()
	cm.Annotations["example.com/current"] = cm.Annotations["example.com/next"]
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*annotations of cm is set from a value read from it"
}

// LabelFromData sets an annotation from a data key of the object, looked up
// in the controller's table: a desired-state write.
type LabelFromData struct {
	client.Client
	Owners map[string]string
}

func (r *LabelFromData) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := cm.DeepCopy()
	cm.Annotations["example.com/owner"] = r.Owners[cm.Data["team"]]
	return ctrl.Result{}, r.Patch(ctx, &cm, client.MergeFrom(base))
}

// JobUpgrader writes the spec of an upgraded Job, whose Patch fills it with
// the server's state (its status included), then sends the status it had
// decided, kept aside across the Patch, as jaeger-operator's upgrade does.
type JobUpgrader struct {
	client.Client
}

func (r *JobUpgrader) upgrade(ctx context.Context, key client.ObjectKey, image string) error {
	var job batchv1.Job
	if err := r.Get(ctx, key, &job); err != nil {
		return err
	}
	base := job.DeepCopy()
	upgraded := upgradedJob(job, image)
	kept := upgraded.Status.Ready
	if err := r.Patch(ctx, &upgraded, client.MergeFrom(base)); err != nil {
		return err
	}
	patch := client.MergeFrom(upgraded.DeepCopy())
	upgraded.Status.Ready = kept
	return r.Status().Patch(ctx, &upgraded, patch)
}

// upgradedJob returns the Job with the new image, and no pod counted ready
// until they run it.
func upgradedJob(job batchv1.Job, image string) batchv1.Job {
	job.Spec.Template.Spec.Containers[0].Image = image
	none := int32(0)
	job.Status.Ready = &none
	return job
}

// The positive control: the value is read after the Patch filled the Job
// in, from the state the status patch replaces.
func (r *JobUpgrader) upgradeCounting(ctx context.Context, job *batchv1.Job, image string) error {
	job.Spec.Template.Spec.Containers[0].Image = image
	if err := r.Patch(ctx, job, client.MergeFrom(job.DeepCopy())); err != nil {
		return err
	}
	patch := client.MergeFrom(job.DeepCopy())
	ready := *job.Status.Ready + 1
	job.Status.Ready = &ready
	return r.Status().Patch(ctx, job, patch) // want "^unconditional-patch: Status\\(\\).Patch of job .*status.ready of job is set from a value read from it"
}

// scaleSetService is a service outside the cluster that the controller
// mirrors in annotations.
type scaleSetService interface {
	UpdateScaleSet(ctx context.Context, id int, group string) (scaleSet, error)
}

type scaleSet struct {
	Name, Group string
}

// ScaleSetMirror writes the name the service answers into an annotation;
// the request names the scale set by the ID kept in another annotation.
// The value is the service's, not one computed from the object.
type ScaleSetMirror struct {
	client.Client
	service scaleSetService
}

func (r *ScaleSetMirror) mirror(ctx context.Context, cm *corev1.ConfigMap, group string) error {
	id, err := strconv.Atoi(cm.Annotations["example.com/scale-set-id"])
	if err != nil {
		return err
	}
	set, err := r.service.UpdateScaleSet(ctx, id, group)
	if err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.Annotations["example.com/scale-set-name"] = set.Name
	return r.Patch(ctx, cm, client.MergeFrom(base))
}

// The positive control: the next ID is computed from the one read.
func (r *ScaleSetMirror) bumpID(ctx context.Context, cm *corev1.ConfigMap) error {
	id, err := strconv.Atoi(cm.Annotations["example.com/scale-set-id"])
	if err != nil {
		return err
	}
	base := cm.DeepCopy()
	cm.Annotations["example.com/scale-set-id"] = strconv.Itoa(id + 1)
	return r.Patch(ctx, cm, client.MergeFrom(base)) // want "^unconditional-patch: Patch of cm .*annotations of cm is set from a value read from it"
}

// A counter read before the spec Patch fills the Job in again, advanced
// and sent: computed from what the object held, not kept across.
func (r *JobUpgrader) upgradeCountingEarly(ctx context.Context, job *batchv1.Job, image string) error {
	ready := *job.Status.Ready
	job.Spec.Template.Spec.Containers[0].Image = image
	if err := r.Patch(ctx, job, client.MergeFrom(job.DeepCopy())); err != nil {
		return err
	}
	patch := client.MergeFrom(job.DeepCopy())
	n := ready + 1
	job.Status.Ready = &n
	return r.Status().Patch(ctx, job, patch) // want "^unconditional-patch: Status\\(\\).Patch of job .*status.ready of job is set from a value read from it"
}

// A helper of another package that takes a context to log, and computes
// from its argument: its result is computed from the object.
func (r *JobUpgrader) bumpReadyViaHelper(ctx context.Context, job *batchv1.Job) error {
	patch := client.MergeFrom(job.DeepCopy())
	n := patchutil.Next(ctx, *job.Status.Ready)
	job.Status.Ready = &n
	return r.Status().Patch(ctx, job, patch) // want "^unconditional-patch: Status\\(\\).Patch of job .*status.ready of job is set from a value read from it"
}

// The methods above are run by the controller's workers.
var _ = []any{(*JobScaler).scaleUp, (*JobUpgrader).bumpReadyViaHelper, (*JobUpgrader).upgradeCounting, (*JobUpgrader).upgradeCountingEarly, (*ScaleSetMirror).bumpID}

// The functions above are run by the program's workers.
var _ = []any{(*JobScaler).scale, (*JobUpgrader).upgrade, (*ScaleSetMirror).mirror}
