package flow_test

import (
	"testing"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssatest"
)

const deletionSrc = `
type Time struct{ s int64 }

func (t *Time) IsZero() bool { return t == nil || t.s == 0 }

type Meta struct {
	DeletionTimestamp *Time             ` + "`json:\"deletionTimestamp\"`" + `
	Finalizers        []string          ` + "`json:\"finalizers\"`" + `
	Labels            map[string]string ` + "`json:\"labels\"`" + `
}

func (m *Meta) GetDeletionTimestamp() *Time { return m.DeletionTimestamp }
func (m *Meta) GetFinalizers() []string     { return m.Finalizers }

type Spec struct {
	Replicas int ` + "`json:\"replicas\"`" + `
	Ready    int ` + "`json:\"ready\"`" + `
}

type Job struct {
	Meta
	Spec Spec ` + "`json:\"spec\"`" + `
}

func write(j *Job) {}

func setNil(j *Job) {
	if j.DeletionTimestamp != nil {
		write(j)
	}
}

func notZero(j *Job) {
	if !j.GetDeletionTimestamp().IsZero() {
		write(j)
	}
}

func earlyReturn(j *Job) {
	if j.DeletionTimestamp.IsZero() {
		return
	}
	write(j)
}

func elseOfNil(j *Job) {
	if j.GetDeletionTimestamp() == nil {
		j.Spec.Ready = 1
	} else {
		write(j)
	}
}

func notDeleting(j *Job) {
	if j.DeletionTimestamp == nil {
		write(j)
	}
}

func afterJoin(j *Job) {
	if j.DeletionTimestamp != nil {
		j.Spec.Ready = 1
	}
	write(j)
}

func other(j, k *Job) {
	if k.DeletionTimestamp != nil {
		write(j)
	}
}

func release(j *Job) { write(j) }

func releaseDeleting(j *Job) {
	if j.DeletionTimestamp != nil {
		release(j)
	}
}

func mixedRelease(j *Job) { write(j) }

func mixedDeleting(j *Job) {
	if j.DeletionTimestamp != nil {
		mixedRelease(j)
	}
}

func mixedAlways(j *Job) { mixedRelease(j) }

func without(l []string, f string) []string {
	var out []string
	for _, x := range l {
		if x != f {
			out = append(out, x)
		}
	}
	return out
}

func filtered(j *Job) {
	j.Finalizers = without(j.Finalizers, "f")
}

func cut(j *Job, i int) {
	j.Finalizers = append(j.Finalizers[:i], j.Finalizers[i+1:]...)
}

func added(j *Job) {
	j.Finalizers = append(j.Finalizers, "f")
}

func fromOther(j *Job, fs []string) {
	j.Finalizers = without(fs, "f")
}

func counter(j *Job) {
	j.Spec.Replicas = j.Spec.Replicas + 1
}

func copied(j *Job) {
	j.Spec.Replicas = j.Spec.Ready
}

func desired(j *Job, d map[string]int) {
	j.Spec.Replicas = d[j.Labels["tier"]]
}

func moved(j *Job) {
	j.Labels["a"] = j.Labels["b"]
}
`

// TestWhileDeleting checks the branches where an object's deletion
// timestamp is known to be set.
func TestWhileDeleting(t *testing.T) {
	p, fp := build(t, deletionSrc)
	for fn, want := range map[string]bool{
		"setNil": true, "notZero": true, "earlyReturn": true, "elseOfNil": true,
		"notDeleting": false, "afterJoin": false, "other": false,
		"release": true, "mixedRelease": false,
	} {
		t.Run(fn, func(t *testing.T) {
			f := p.Func(t, fn)
			call := ssatest.Call(t, f, "example.com/test.write")
			if got := fp.WhileDeleting(call.Call.Args[0], call); got != want {
				t.Errorf("WhileDeleting = %v, want %v", got, want)
			}
		})
	}
}

// TestMutationProvenance checks which changes only remove elements of a
// list, and which values are computed from the value they replace.
func TestMutationProvenance(t *testing.T) {
	p, fp := build(t, deletionSrc)
	for _, tc := range []struct {
		fn               string
		field            string
		remove, fromRead bool
	}{
		{"filtered", "finalizers", true, false},
		{"cut", "finalizers", true, false},
		{"added", "finalizers", false, false},
		{"fromOther", "finalizers", false, false},
		{"counter", "spec.replicas", false, true},
		{"copied", "spec.replicas", false, false},
		{"desired", "spec.replicas", false, false},
		{"moved", "labels", false, true},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			f := p.Func(t, tc.fn)
			ms := fp.Mutations(f.Params[0], nil, nil)
			if len(ms) != 1 {
				t.Fatalf("%d mutations %+v, want 1", len(ms), ms)
			}
			m := ms[0]
			if m.Field != tc.field || m.Remove != tc.remove || m.FromRead != tc.fromRead {
				t.Errorf("mutation of %s remove %v fromRead %v, want %s %v %v", m.Field, m.Remove, m.FromRead, tc.field, tc.remove, tc.fromRead)
			}
		})
	}
}
