package missingretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
)

// The status of the reconciled object, watched with no event filter: a 409
// means another writer changed the Widget, that change's event runs
// Reconcile again, and it writes the status afresh. Logging the conflict
// loses nothing.
type WatchedWidgetReconciler struct {
	client.Client
}

func (r *WatchedWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}).
		Owns(&corev1.ConfigMap{}).
		Complete(r)
}

func (r *WatchedWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.ObservedGeneration = widget.Generation
	if err := r.Status().Update(ctx, widget); err != nil {
		log.Error(err, "cannot update the Widget status")
	}
	r.setPhase(ctx, widget, "Reconciled")
	widget.Status.Phase = "Ready"
	if err := r.writeStatus(ctx, widget); err != nil {
		log.Error(err, "cannot write the Widget status")
	}
	return ctrl.Result{}, nil
}

// writeStatus writes the status and returns the error: its caller, Reconcile,
// only logs it.
func (r *WatchedWidgetReconciler) writeStatus(ctx context.Context, widget *widgetsv1.Widget) error {
	return r.Status().Update(ctx, widget)
}

// setPhase writes the status of the object Reconcile passes it.
func (r *WatchedWidgetReconciler) setPhase(ctx context.Context, obj client.Object, phase string) {
	if w, ok := obj.(*widgetsv1.Widget); ok {
		w.Status.Phase = phase
	}
	if err := r.Status().Update(ctx, obj); err != nil {
		logf.FromContext(ctx).Error(err, "cannot set the phase")
	}
}

// A spec write of the reconciled object is intent, not observed state: its
// conflict is still lost.
type WatchedLabelReconciler struct {
	client.Client
}

func (r *WatchedLabelReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

func (r *WatchedLabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Labels["example.com/seen"] = "true"
	if err := r.Update(ctx, widget); err != nil { // want "^missing-retry: .*widget"
		logf.FromContext(ctx).Error(err, "cannot label the Widget")
	}
	return ctrl.Result{}, nil
}

// A watch that drops status-only events (GenerationChangedPredicate) does
// not run Reconcile again after another writer's status change: the
// conflict is lost until the next resync.
type FilteredWidgetReconciler struct {
	client.Client
}

func (r *FilteredWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Complete(r)
}

func (r *FilteredWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	if err := r.Status().Update(ctx, widget); err != nil { // want "^missing-retry: .*widget"
		logf.FromContext(ctx).Error(err, "cannot update the Widget status")
	}
	widget.Status.Phase = "Ready"
	if err := r.writeStatus(ctx, widget); err != nil { // want "^missing-retry: writeStatus of widget"
		logf.FromContext(ctx).Error(err, "cannot write the Widget status")
	}
	return ctrl.Result{}, nil
}

func (r *FilteredWidgetReconciler) writeStatus(ctx context.Context, widget *widgetsv1.Widget) error {
	return r.Status().Update(ctx, widget)
}

// An event filter on every watch of the controller, the same.
type EventFilterWidgetReconciler struct {
	client.Client
}

func (r *EventFilterWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}).
		WithEventFilter(predicate.GenerationChangedPredicate{}).
		Complete(r)
}

func (r *EventFilterWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}

// The watches are added in a loop (a phi in the builder chain), with no
// filter on the For watch: still watched.
type LoopWatchWidgetReconciler struct {
	client.Client
	Sources []client.Object
}

func (r *LoopWatchWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	b := ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.OnlyMetadata)
	for _, src := range r.Sources {
		b = b.Watches(src, &handler.EnqueueRequestForObject{})
	}
	return b.Complete(r)
}

func (r *LoopWatchWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget)
	return ctrl.Result{}, nil
}

// A status write in a goroutine Reconcile starts is not run again by the
// next Reconcile's call path: its conflict is lost.
type BackgroundWidgetReconciler struct {
	client.Client
}

func (r *BackgroundWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

func (r *BackgroundWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	go r.probe(ctx, widget)
	return ctrl.Result{}, nil
}

func (r *BackgroundWidgetReconciler) probe(ctx context.Context, widget *widgetsv1.Widget) {
	widget.Status.Phase = "Probed"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
}

// The status of another kind than the one reconciled: its writers' events
// do not run this Reconcile.
type WidgetPodReconciler struct {
	client.Client
}

func (r *WidgetPodReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

func (r *WidgetPodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	pod.Status.Message = "seen by the Widget controller"
	_ = r.Status().Update(ctx, pod) // want "^missing-retry: .*pod"
	return ctrl.Result{}, nil
}

// Watches added by a helper of the package that takes the builder and
// returns it are followed into: no filter on For, still watched.
type HelperWatchesWidgetReconciler struct {
	client.Client
}

func (r *HelperWatchesWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	b := ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{})
	b = watchConfigMaps(b)
	return b.Complete(r)
}

func watchConfigMaps(b *builder.Builder) *builder.Builder {
	return b.Watches(&corev1.ConfigMap{}, &handler.EnqueueRequestForObject{})
}

func (r *HelperWatchesWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget)
	return ctrl.Result{}, nil
}

// The same helper shape, adding an event filter: reported.
type HelperFilterWidgetReconciler struct {
	client.Client
}

func (r *HelperFilterWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return onlySpecChanges(ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{})).Complete(r)
}

func onlySpecChanges(b *builder.Builder) *builder.Builder {
	return b.WithEventFilter(predicate.GenerationChangedPredicate{})
}

func (r *HelperFilterWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}

// A builder kept in a field: the analysis cannot see what was added to it.
type FieldBuilderWidgetReconciler struct {
	client.Client
	bld *builder.Builder
}

func (r *FieldBuilderWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.bld = ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{})
	return r.bld.Complete(r)
}

func (r *FieldBuilderWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}

// The status written in a deferred closure of Reconcile: run again by the
// next Reconcile like the rest of it.
type DeferredWidgetReconciler struct {
	client.Client
}

func (r *DeferredWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

func (r *DeferredWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err := r.Status().Update(ctx, widget); err != nil {
			logf.FromContext(ctx).Error(err, "cannot update the Widget status")
		}
	}()
	widget.Status.Phase = "Reconciled"
	return ctrl.Result{}, nil
}

// A helper Reconcile calls that a monitoring goroutine also runs: the
// goroutine's conflict is not followed by a reconcile that redoes its write.
type MonitoredWidgetReconciler struct {
	client.Client
}

func (r *MonitoredWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

func (r *MonitoredWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.markHealthy(ctx, widget)
	go r.markHealthy(ctx, widget.DeepCopy())
	return ctrl.Result{}, nil
}

func (r *MonitoredWidgetReconciler) markHealthy(ctx context.Context, widget *widgetsv1.Widget) {
	widget.Status.Phase = "Healthy"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
}

// One status helper for two controllers, each passing its own object and
// nil for the other: each write runs only in the Reconcile of the
// controller that watches its type.
type readyWriter struct {
	client.Client
}

func (rw readyWriter) markReady(ctx context.Context, widget *widgetsv1.Widget, pod *corev1.Pod) {
	if widget != nil {
		widget.Status.Phase = "Ready"
		_ = rw.Status().Update(ctx, widget)
	}
	if pod != nil {
		pod.Status.Message = "ready"
		_ = rw.Status().Update(ctx, pod)
	}
}

type ReadyWidgetReconciler struct {
	readyWriter
}

func (r *ReadyWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

func (r *ReadyWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.markReady(ctx, widget, nil)
	return ctrl.Result{}, nil
}

type ReadyPodReconciler struct {
	readyWriter
}

func (r *ReadyPodReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(r)
}

func (r *ReadyPodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.markReady(ctx, nil, pod)
	return ctrl.Result{}, nil
}

// A predicate that drops only resyncs (updates whose resourceVersion did
// not change) passes the conflicting writer's event: still watched, on For
// and as the controller's event filter.
type ResyncFilterWidgetReconciler struct {
	client.Client
}

func (r *ResyncFilterWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(predicate.ResourceVersionChangedPredicate{})).
		WithEventFilter(predicate.ResourceVersionChangedPredicate{}).
		Complete(r)
}

func (r *ResyncFilterWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget)
	return ctrl.Result{}, nil
}

// The same predicate next to one that drops status-only changes: filtered.
type MixedFilterWidgetReconciler struct {
	client.Client
}

func (r *MixedFilterWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(predicate.ResourceVersionChangedPredicate{}, predicate.GenerationChangedPredicate{})).
		Complete(r)
}

func (r *MixedFilterWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}

// Predicates that choose objects, not changes: a filter of the object's
// labels (NewPredicateFuncs, LabelSelectorPredicate), or a predicate.Funcs
// whose UpdateFunc asks only the new object's labels. The conflicting
// status write keeps the labels, so its event passes: still watched.
type LabelledWidgetReconciler struct {
	client.Client
}

func (r *LabelledWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	sel, err := predicate.LabelSelectorPredicate(metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}})
	if err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(teamPredicate("a"), sel)).
		WithEventFilter(predicate.Funcs{
			UpdateFunc: func(e event.UpdateEvent) bool {
				return e.ObjectNew.GetLabels()["paused"] != "true"
			},
		}).
		Complete(r)
}

// teamPredicate admits the objects of one team, whichever label set
// names it.
func teamPredicate(team string) predicate.Predicate {
	keys := []string{"team", "example.com/team"}
	preds := make([]predicate.Predicate, len(keys))
	for i := range keys {
		preds[i] = predicate.NewPredicateFuncs(func(obj client.Object) bool {
			return obj.GetLabels()[keys[i]] == team
		})
	}
	return predicate.Or(preds...)
}

func (r *LabelledWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget)
	return ctrl.Result{}, nil
}

// Filters that test the object's state, or its old version, choose
// changes: a status-only change of a ready Widget, or one that keeps the
// labels, does not pass. Reported.
type StateFilterWidgetReconciler struct {
	client.Client
}

func (r *StateFilterWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	notReady := predicate.NewPredicateFuncs(func(obj client.Object) bool {
		w, ok := obj.(*widgetsv1.Widget)
		return ok && w.Status.Phase != "Ready"
	})
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(notReady)).
		Complete(r)
}

func (r *StateFilterWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Ready"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}

type LabelChangeWidgetReconciler struct {
	client.Client
}

func (r *LabelChangeWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}).
		WithEventFilter(predicate.Funcs{
			UpdateFunc: func(e event.UpdateEvent) bool {
				return e.ObjectNew.GetLabels()["team"] != e.ObjectOld.GetLabels()["team"]
			},
		}).
		Complete(r)
}

func (r *LabelChangeWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}

// A label filter and a generation filter, both asked (And): status-only
// changes are dropped. Reported.
type LabelledSpecWidgetReconciler struct {
	client.Client
}

func (r *LabelledSpecWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(predicate.And(teamPredicate("a"), predicate.Predicate(predicate.GenerationChangedPredicate{})))).
		Complete(r)
}

func (r *LabelledSpecWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Reconciled"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}

// An UpdateFunc that drops every update, to react to creations only: it
// asks nothing of the object, and still filters every change. Reported.
type CreateOnlyWidgetReconciler struct {
	client.Client
}

func (r *CreateOnlyWidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&widgetsv1.Widget{}, builder.WithPredicates(predicate.Funcs{
			UpdateFunc: func(event.UpdateEvent) bool { return false },
		})).
		Complete(r)
}

func (r *CreateOnlyWidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &widgetsv1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Phase = "Created"
	_ = r.Status().Update(ctx, widget) // want "^missing-retry: .*widget"
	return ctrl.Result{}, nil
}
