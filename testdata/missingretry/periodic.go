package missingretry

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// A loop run every period until it succeeds: each period reads the
// ConfigMap again and writes it, so a write lost to a conflict is retried
// one period later.
func publishEndpoints(ctx context.Context, cs kubernetes.Interface, ns, name string, data map[string]string) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wait.JitterUntilWithContext(ctx, func(ctx context.Context) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return
		}
		cm.Data = data
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "cannot publish the endpoints")
			return
		}
		cancel()
	}, 5*time.Second, 0.3, true)
}

// The same loop around an object read once, before it: every period resends
// the same object, and the logged conflict is lost for good.
func publishEndpointsReadOnce(ctx context.Context, cs kubernetes.Interface, ns, name string, data map[string]string) {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	wait.UntilWithContext(ctx, func(ctx context.Context) {
		cm.Data = data
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write whose 409 Conflict reaches no retry \(its error is only logged\)`
			klog.ErrorS(err, "cannot publish the endpoints")
		}
	}, 5*time.Second)
}

// The functions above are run by the program's workers.
var _ = []any{publishEndpoints, publishEndpointsReadOnce}

// A resync of every cached Secret, run each period as a method value: each
// period lists them again and writes what is still out of date.
type secretResyncer struct {
	cs     kubernetes.Interface
	lister corelisters.SecretLister
}

func (r *secretResyncer) Run(stop <-chan struct{}) {
	go wait.Until(r.resync, 30*time.Second, stop)
	go wait.Until(func() { r.resyncLabelled() }, 30*time.Second, stop)
}

func (r *secretResyncer) resync() {
	secrets, err := r.lister.List(labels.Everything())
	if err != nil {
		return
	}
	for _, cached := range secrets {
		s := cached.DeepCopy()
		s.Annotations = map[string]string{"resynced": "true"}
		if _, err := r.cs.CoreV1().Secrets(s.Namespace).Update(context.TODO(), s, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "cannot resync", "secret", s.Name)
		}
	}
}

// Called only from the func literal a periodic runner runs.
func (r *secretResyncer) resyncLabelled() {
	secrets, err := r.lister.List(labels.SelectorFromSet(labels.Set{"resync": "true"}))
	if err != nil {
		return
	}
	for _, cached := range secrets {
		s := cached.DeepCopy()
		s.Labels["resync"] = "done"
		if _, err := r.cs.CoreV1().Secrets(s.Namespace).Update(context.TODO(), s, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "cannot resync", "secret", s.Name)
		}
	}
}

// A resync run once at the start and by the informer's handler, but by no
// periodic runner: a write lost to a conflict is not retried.
func (r *secretResyncer) RunOnAdd(informer cache.SharedIndexInformer) {
	go r.resyncOne()
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(any) { r.resyncOne() }})
}

func (r *secretResyncer) resyncOne() {
	s, err := r.lister.Secrets("kube-system").Get("bootstrap")
	if err != nil {
		return
	}
	s = s.DeepCopy()
	s.Annotations["resynced"] = "true"
	if _, err := r.cs.CoreV1().Secrets(s.Namespace).Update(context.TODO(), s, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of s is a read-modify-write`
		klog.ErrorS(err, "cannot resync", "secret", s.Name)
	}
}

// A topology publisher that rebuilds once at the start and then every
// period, through a helper: a write the first run loses to a conflict is
// redone by the next period, which reads the ConfigMap again.
type topologyPublisher struct {
	cs     kubernetes.Interface
	lister corelisters.ConfigMapLister
}

func (m *topologyPublisher) Run(ctx context.Context) {
	m.rebuild(ctx)
	go wait.Until(func() { m.rebuild(ctx) }, time.Minute, ctx.Done())
}

func (m *topologyPublisher) rebuild(ctx context.Context) {
	m.publish(ctx)
}

func (m *topologyPublisher) publish(ctx context.Context) {
	cached, err := m.lister.ConfigMaps("kube-system").Get("topology")
	if err != nil {
		return
	}
	cm := cached.DeepCopy()
	cm.Data = map[string]string{"rebuilt": time.Now().String()}
	if _, err := m.cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "cannot publish the topology")
	}
}

// A ticker loop written by hand: every tick reads the ConfigMap again and
// bumps its counter, so a bump lost to a conflict is redone at the next
// tick.
func triggerBackups(ctx context.Context, cs kubernetes.Interface, ticker *time.Ticker, ns, name string) {
	for range ticker.C {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			klog.ErrorS(err, "cannot read the backup trigger")
			continue
		}
		if cm.Data["last"] == cm.Data["pending"] {
			cm.Data["pending"] += "+"
			if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
				klog.ErrorS(err, "cannot trigger a backup")
			}
		}
	}
}

// The same by sleeping at the end of every round.
func markHeartbeat(ctx context.Context, cs kubernetes.Interface, ns, name string) {
	for {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			cm.Data["heartbeat"] = time.Now().String()
			if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
				klog.ErrorS(err, "cannot write the heartbeat")
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Second):
		}
	}
}

// The control: the ConfigMap is read once, before the ticker loop, and each
// tick resends that version, so a lost bump stays lost.
func triggerBackupsReadOnce(ctx context.Context, cs kubernetes.Interface, ticker *time.Ticker, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	for range ticker.C {
		cm.Data["pending"] += "+"
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write`
			klog.ErrorS(err, "cannot trigger a backup")
		}
	}
	return nil
}

// The control: a loop over the items of one List is no period; a conflict
// of one item is not redone by the next.
func labelAll(ctx context.Context, cs kubernetes.Interface, ns string) error {
	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range list.Items {
		cm := &list.Items[i]
		cm.Data["labelled"] = "true"
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want `^missing-retry: Update of cm is a read-modify-write`
			klog.ErrorS(err, "cannot label")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// The functions above are run by the controller's workers.
var _ = []any{triggerBackups, markHeartbeat, triggerBackupsReadOnce, labelAll}

// A status reporter written by hand: each tick of a select loop calls a
// method that reads the ConfigMap again and writes this node's entry when
// it differs, dropping the error. The next tick redoes a write lost to a
// conflict, with a fresh read.
type nodeStatusReporter struct {
	cs       kubernetes.Interface
	ns, node string
}

func (r nodeStatusReporter) report() {
	cm, err := r.cs.CoreV1().ConfigMaps(r.ns).Get(context.Background(), "node-status", metav1.GetOptions{})
	if err != nil {
		return
	}
	if cm.Data[r.node] == "ready" {
		return
	}
	cm.Data[r.node] = "ready"
	_, _ = r.cs.CoreV1().ConfigMaps(r.ns).Update(context.Background(), cm, metav1.UpdateOptions{})
}

func (r nodeStatusReporter) run(ctx context.Context) {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			r.report()
		case <-ctx.Done():
			return
		}
	}
}

func (r nodeStatusReporter) Start(ctx context.Context) error {
	go r.run(ctx)
	return nil
}

// The control: the same method, called once at start and by no period.
func (r nodeStatusReporter) reportOnce() {
	cm, err := r.cs.CoreV1().ConfigMaps(r.ns).Get(context.Background(), "node-status", metav1.GetOptions{})
	if err != nil {
		return
	}
	cm.Data[r.node] = "starting"
	_, _ = r.cs.CoreV1().ConfigMaps(r.ns).Update(context.Background(), cm, metav1.UpdateOptions{}) // want `^missing-retry: Update of cm is a read-modify-write`
}

func (r nodeStatusReporter) StartOnce(ctx context.Context) error {
	r.reportOnce()
	return nil
}

// secretManager wraps a lister and the clientset, as a controller's own
// manager type does: list reads the informer's cache, update writes and
// hands the error back.
type secretManager struct {
	cs     kubernetes.Interface
	lister corelisters.SecretLister
	ns     string
}

func (m *secretManager) list() ([]*corev1.Secret, error) {
	return m.lister.Secrets(m.ns).List(labels.Everything())
}

func (m *secretManager) update(ctx context.Context, s *corev1.Secret) (*corev1.Secret, error) {
	return m.cs.CoreV1().Secrets(s.Namespace).Update(ctx, s, metav1.UpdateOptions{})
}

// secretPruner lists the Secrets on every tick and starts a goroutine per
// Secret that prunes its stale keys, only logging a failed Update: the next
// tick lists the Secret again and prunes it again.
type secretPruner struct {
	secrets *secretManager
	live    map[string]bool
	pending map[string]*corev1.Secret // kept from the informer's add events
}

func (p *secretPruner) run(ctx context.Context) {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			p.sync(ctx)
			p.syncPending(ctx)
		}
	}
}

func (p *secretPruner) sync(ctx context.Context) {
	secrets, err := p.secrets.list()
	if err != nil {
		return
	}
	for _, s := range secrets {
		go p.prune(ctx, s)
	}
}

func (p *secretPruner) prune(ctx context.Context, s *corev1.Secret) {
	pruned := s.DeepCopy()
	for k := range pruned.Data {
		if !p.live[k] {
			delete(pruned.Data, k)
		}
	}
	if _, err := p.secrets.update(ctx, pruned); err != nil {
		klog.ErrorS(err, "cannot prune", "secret", klog.KObj(s))
	}
}

func (p *secretPruner) Start(ctx context.Context) error {
	go p.run(ctx)
	return nil
}

// The control: the same prune, started for each Secret once.
func (p *secretPruner) pruneOnce(ctx context.Context, s *corev1.Secret) {
	pruned := s.DeepCopy()
	for k := range pruned.Data {
		if !p.live[k] {
			delete(pruned.Data, k)
		}
	}
	if _, err := p.secrets.update(ctx, pruned); err != nil { // want `^missing-retry: update of pruned is a read-modify-write`
		klog.ErrorS(err, "cannot prune", "secret", klog.KObj(s))
	}
}

func (p *secretPruner) StartOnce(ctx context.Context) error {
	secrets, err := p.secrets.list()
	if err != nil {
		return err
	}
	for _, s := range secrets {
		go p.pruneOnce(ctx, s)
	}
	return nil
}

// The control of the list: each tick prunes the Secrets kept in a field
// since their add event, never read again, so a Secret whose write lost
// a conflict is sent with the same stale resourceVersion on every tick.
func (p *secretPruner) pendingCopy() []*corev1.Secret {
	out := make([]*corev1.Secret, 0, len(p.pending))
	for _, s := range p.pending {
		out = append(out, s)
	}
	return out
}

func (p *secretPruner) syncPending(ctx context.Context) {
	for _, s := range p.pendingCopy() {
		p.prunePending(ctx, s)
	}
}

func (p *secretPruner) prunePending(ctx context.Context, s *corev1.Secret) {
	pruned := s.DeepCopy()
	for k := range pruned.Data {
		if !p.live[k] {
			delete(pruned.Data, k)
		}
	}
	if _, err := p.secrets.update(ctx, pruned); err != nil { // want `^missing-retry: update of pruned is a read-modify-write`
		klog.ErrorS(err, "cannot prune", "secret", klog.KObj(s))
	}
}
