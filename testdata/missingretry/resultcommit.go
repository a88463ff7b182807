package missingretry

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// CommitReconciler commits the changes a reconcile made to the Widget in a
// helper its deferred closure calls with the address of the named result.
// When the Update fails, the helper asks for a requeue unless the result
// asks for one already: the conflict reaches the work queue either way.
type CommitReconciler struct {
	client.Client
}

const commitRetryInterval = 20 * time.Second

func (r *CommitReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, err error) {
	widget, before := &widgetsv1.Widget{}, &widgetsv1.Widget{}
	defer func() {
		r.commit(ctx, before, widget, &result)
	}()
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.DeepCopyInto(before)
	if widget.Labels == nil {
		widget.Labels = map[string]string{}
	}
	widget.Labels["widgets.example.com/tier"] = "gold"
	return ctrl.Result{}, nil
}

// commit writes the Widget when its labels changed.
func (r *CommitReconciler) commit(ctx context.Context, before, widget *widgetsv1.Widget, res *ctrl.Result) {
	if widget.Name == "" || before.Labels["widgets.example.com/tier"] == widget.Labels["widgets.example.com/tier"] {
		return
	}
	if err := r.Update(ctx, widget.DeepCopy()); err != nil {
		if res.RequeueAfter == 0 {
			res.RequeueAfter = commitRetryInterval
			logf.FromContext(ctx).Error(err, "cannot commit the Widget, will retry", "after", res.RequeueAfter)
		}
		return
	}
}

// LoggedCommitReconciler's helper only logs a failed Update when the result
// already asks for a requeue, and otherwise drops it: reported.
type LoggedCommitReconciler struct {
	client.Client
}

func (r *LoggedCommitReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, err error) {
	widget, before := &widgetsv1.Widget{}, &widgetsv1.Widget{}
	defer func() {
		r.commit(ctx, before, widget, &result)
	}()
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.DeepCopyInto(before)
	if widget.Labels == nil {
		widget.Labels = map[string]string{}
	}
	widget.Labels["widgets.example.com/tier"] = "gold"
	return ctrl.Result{}, nil
}

// commit writes the Widget when its labels changed.
func (r *LoggedCommitReconciler) commit(ctx context.Context, before, widget *widgetsv1.Widget, res *ctrl.Result) {
	if widget.Name == "" || before.Labels["widgets.example.com/tier"] == widget.Labels["widgets.example.com/tier"] {
		return
	}
	if err := r.Update(ctx, widget.DeepCopy()); err != nil { // want `^missing-retry: Update of widget.DeepCopy\(\) is a read-modify-write whose 409 Conflict reaches no retry`
		if res.RequeueAfter != 0 {
			logf.FromContext(ctx).Error(err, "cannot commit the Widget")
		}
		return
	}
}
