package missingretry

import (
	"context"
	"reflect"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// statusManager publishes a component's state into a ConfigMap. A
// goroutine works the state out again every five seconds and writes it
// through setAvailable and set, which reads the ConfigMap each time and
// only logs a failed write (after one retry on a conflict): the next round
// writes it again. Reconcilers call SetDegraded as well.
type statusManager struct {
	lock      sync.Mutex
	client    client.Client
	name      string
	available bool
}

func (m *statusManager) Run(ctx context.Context) {
	go func() {
		ticker := time.NewTicker(5 * time.Second)
		defer ticker.Stop()
		for {
			m.updateStatus()
			select {
			case <-ticker.C:
				continue
			case <-ctx.Done():
				return
			}
		}
	}()
}

func (m *statusManager) updateStatus() {
	if m.available {
		m.setAvailable("all objects available")
	}
	m.setUnguarded("heartbeat", time.Now().String())
}

func (m *statusManager) setAvailable(msg string) {
	m.lock.Lock()
	defer m.lock.Unlock()
	m.set(true, "available", msg)
}

func (m *statusManager) SetDegraded(msg string) {
	m.lock.Lock()
	defer m.lock.Unlock()
	m.set(true, "degraded", msg)
}

// set creates the ConfigMap when it is not found; the object built for the
// Create never reaches the Update, which is on the other branch of the same
// test.
func (m *statusManager) set(retry bool, key, msg string) {
	var cm corev1.ConfigMap
	err := m.client.Get(context.TODO(), types.NamespacedName{Namespace: "status", Name: m.name}, &cm)
	notFound := apierrors.IsNotFound(err)
	if err != nil && !notFound {
		return
	}
	if notFound {
		cm = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "status", Name: m.name}}
	}
	old := cm.DeepCopy()
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data[key] = msg
	if reflect.DeepEqual(cm.Data, old.Data) {
		return
	}
	if notFound {
		if err := m.client.Create(context.TODO(), &cm); err != nil {
			logf.Log.Info("cannot create the status", "reason", err)
		}
	} else if err := m.client.Update(context.TODO(), &cm); err != nil {
		if retry && apierrors.IsConflict(err) {
			m.set(false, key, msg)
			return
		}
		logf.Log.Info("cannot write the status", "reason", err)
	}
}

// The control: the same write, called only by reconcilers.
type degradedReporter struct {
	client client.Client
	name   string
}

func (d *degradedReporter) SetDegraded(msg string) {
	d.set(true, msg)
}

func (d *degradedReporter) set(retry bool, msg string) {
	var cm corev1.ConfigMap
	err := d.client.Get(context.TODO(), types.NamespacedName{Namespace: "status", Name: d.name}, &cm)
	notFound := apierrors.IsNotFound(err)
	if err != nil && !notFound {
		return
	}
	if notFound {
		cm = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "status", Name: d.name}}
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["degraded"] = msg
	if notFound {
		if err := d.client.Create(context.TODO(), &cm); err != nil {
			logf.Log.Info("cannot create the status", "reason", err)
		}
	} else if err := d.client.Update(context.TODO(), &cm); err != nil { // want `^missing-retry: Update of cm is a read-modify-write`
		if retry && apierrors.IsConflict(err) {
			d.set(false, msg)
			return
		}
		logf.Log.Info("cannot write the status", "reason", err)
	}
}

// The control of the branches: run every period too, but the Update is not
// on the other branch of the test that builds the object, so it may send
// the built one, with no resourceVersion: a retry one period later builds
// it again.
func (m *statusManager) setUnguarded(key, msg string) {
	var cm corev1.ConfigMap
	err := m.client.Get(context.TODO(), types.NamespacedName{Namespace: "status", Name: m.name}, &cm)
	notFound := apierrors.IsNotFound(err)
	if err != nil && !notFound {
		return
	}
	if notFound {
		cm = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "status", Name: m.name}}
	}
	cm.Data = map[string]string{key: msg}
	if err := m.client.Update(context.TODO(), &cm); err != nil { // want `^missing-retry: Update of cm is a read-modify-write`
		logf.Log.Info("cannot write the status", "reason", err)
	}
}
