package flow_test

import (
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssatest"
)

// Stubs of the client libraries: just the names the client model
// recognises. A typed client is known by the metav1 option types its
// methods take.
var stubs = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1": `package v1

type ObjectMeta struct {
	Name            string
	ResourceVersion string
}

func (m *ObjectMeta) GetResourceVersion() string { return m.ResourceVersion }

type GetOptions struct{ ResourceVersion string }

type UpdateOptions struct{}
`,
	"k8s.io/apimachinery/pkg/api/errors": `package errors

func IsConflict(err error) bool { return false }

func IsNotFound(err error) bool { return false }
`,
	"k8s.io/client-go/util/retry": `package retry

type Backoff struct{ Steps int }

var DefaultRetry = Backoff{Steps: 5}

func RetryOnConflict(backoff Backoff, fn func() error) error { return fn() }
`,
	"k8s.io/klog/v2": `package klog

func ErrorS(err error, msg string, keysAndValues ...any) {}
`,
}

// header declares an object type and its typed client.
const header = `package test

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
)

type Widget struct {
	metav1.ObjectMeta
	Size int
}

type Widgets interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*Widget, error)
	Update(ctx context.Context, w *Widget, opts metav1.UpdateOptions) (*Widget, error)
}

var (
	_ = apierrors.IsConflict
	_ = retry.RetryOnConflict
	_ = klog.ErrorS
)
`

const updateName = "(example.com/test.Widgets).Update"

func build(t *testing.T, src string) (*ssatest.Package, *flow.Package) {
	t.Helper()
	p := ssatest.Build(t, header+src, stubs)
	return p, flow.New(p.SSA, p.Funcs(), flow.Options{}, noFacts{})
}

type noFacts struct{}

func (noFacts) FuncFact(*types.Func) *flow.FuncFact { return nil }

// kinds returns the kinds of origins, sorted.
func kinds(os []flow.Origin) []flow.Kind {
	var out []flow.Kind
	for _, o := range os {
		out = append(out, o.Kind)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestOrigins checks the provenance of the object an Update writes, and
// how origins merge where control flow does: every origin that can reach
// the write is kept, and a later event on every path replaces them.
func TestOrigins(t *testing.T) {
	p, fp := build(t, `
func constructed(ctx context.Context, c Widgets) {
	c.Update(ctx, &Widget{Size: 1}, metav1.UpdateOptions{})
}

func read(ctx context.Context, c Widgets) {
	w, _ := c.Get(ctx, "w", metav1.GetOptions{})
	w.Size++
	c.Update(ctx, w, metav1.UpdateOptions{})
}

func param(ctx context.Context, c Widgets, w *Widget) {
	c.Update(ctx, w, metav1.UpdateOptions{})
}

func merged(ctx context.Context, c Widgets, fresh bool) {
	var w *Widget
	if fresh {
		w = &Widget{}
	} else {
		w, _ = c.Get(ctx, "w", metav1.GetOptions{})
	}
	c.Update(ctx, w, metav1.UpdateOptions{})
}

func cleared(ctx context.Context, c Widgets, fresh bool) {
	var w *Widget
	if fresh {
		w = &Widget{}
	} else {
		w, _ = c.Get(ctx, "w", metav1.GetOptions{})
	}
	w.ResourceVersion = ""
	c.Update(ctx, w, metav1.UpdateOptions{})
}

func clearedOnOnePath(ctx context.Context, c Widgets, force bool) {
	w, _ := c.Get(ctx, "w", metav1.GetOptions{})
	if force {
		w.ResourceVersion = ""
	}
	c.Update(ctx, w, metav1.UpdateOptions{})
}

func cache(ctx context.Context, c Widgets) {
	w, _ := c.Get(ctx, "w", metav1.GetOptions{ResourceVersion: "0"})
	c.Update(ctx, w, metav1.UpdateOptions{})
}
`)
	for _, tc := range []struct {
		fn    string
		want  []flow.Kind
		noRV  bool // AllNoResourceVersion: the PUT is unconditional on every path
		param bool // the Unknown origin is the parameter
	}{
		{"constructed", []flow.Kind{flow.Constructed}, true, false},
		{"read", []flow.Kind{flow.Read}, false, false},
		{"param", []flow.Kind{flow.Unknown}, false, true},
		{"merged", []flow.Kind{flow.Read, flow.Constructed}, false, false},
		{"cleared", []flow.Kind{flow.Cleared}, true, false},
		{"clearedOnOnePath", []flow.Kind{flow.Read, flow.Cleared}, false, false},
		{"cache", []flow.Kind{flow.Read}, false, false},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			update := ssatest.Call(t, p.Func(t, tc.fn), updateName)
			origins := fp.Object(update.Call.Args[1], update)
			if got := kinds(origins); !slices.Equal(got, tc.want) {
				t.Fatalf("origins %v, want %v", got, tc.want)
			}
			if got := flow.AllNoResourceVersion(origins); got != tc.noRV {
				t.Errorf("AllNoResourceVersion %v, want %v", got, tc.noRV)
			}
			for _, o := range origins {
				if tc.param && o.Param != p.Func(t, tc.fn).Params[2] {
					t.Errorf("origin %+v, want the parameter w", o)
				}
				if o.Kind == flow.Read && o.RV0 != (tc.fn == "cache") {
					t.Errorf("read with RV0 %v", o.RV0)
				}
			}
		})
	}
}

func TestRetries(t *testing.T) {
	p, fp := build(t, `
func inRetry(ctx context.Context, c Widgets) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := c.Get(ctx, "w", metav1.GetOptions{})
		if err != nil {
			return err
		}
		w.Size++
		_, err = c.Update(ctx, w, metav1.UpdateOptions{})
		return err
	})
}

func loop(ctx context.Context, c Widgets) error {
	for {
		w, err := c.Get(ctx, "w", metav1.GetOptions{})
		if err != nil {
			return err
		}
		w.Size++
		_, err = c.Update(ctx, w, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			continue
		}
		return err
	}
}

func boundedLoop(ctx context.Context, c Widgets) error {
	var err error
	for i := 0; i < 5; i++ {
		var w *Widget
		w, err = c.Get(ctx, "w", metav1.GetOptions{})
		if err != nil {
			return err
		}
		w.Size++
		if _, err = c.Update(ctx, w, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			return err
		}
	}
	return err
}

func once(ctx context.Context, c Widgets, w *Widget) error {
	_, err := c.Update(ctx, w, metav1.UpdateOptions{})
	return err
}

func notARetry(ctx context.Context, c Widgets, ws []*Widget) {
	for _, w := range ws {
		_, err := c.Update(ctx, w, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			continue
		}
	}
}
`)
	t.Run("RetryOnConflict", func(t *testing.T) {
		update := ssatest.Call(t, p.Func(t, "inRetry"), updateName)
		r := fp.RetryOf(update)
		if r == nil {
			t.Fatal("the Update runs in no retry")
		}
		if r.Name != "retry.RetryOnConflict" || !r.ConflictOnly || !r.Bounded || !r.Backoff || r.Fn != update.Parent() || r.Loop != nil {
			t.Errorf("retry %+v: want retry.RetryOnConflict of the closure, on conflicts, bounded, with backoff", r)
		}
		if !r.Inside(update) {
			t.Error("the Update is not inside the retried attempt")
		}
		if r.Inside(ssatest.Call(t, p.Func(t, "once"), updateName)) {
			t.Error("an Update of another function is inside the retry")
		}
		if fp.Retried(update.Parent()) != r {
			t.Error("Retried of the closure is not its retry")
		}
	})
	t.Run("loop", func(t *testing.T) {
		fn := p.Func(t, "loop")
		update := ssatest.Call(t, fn, updateName)
		r := fp.RetryOf(update)
		if r == nil || r.Loop == nil {
			t.Fatalf("retry %+v: want a retry loop", r)
		}
		if r.Bounded {
			t.Error("a for loop without a condition is bounded")
		}
		if r.Loop.Conflict == nil || !slices.Contains(r.Loop.Attempts, ssa.CallInstruction(update)) {
			t.Errorf("loop %+v: want the conflict check of the Update's error", r.Loop)
		}
		if got := fp.Loops(fn); len(got) != 1 || got[0] != r.Loop {
			t.Errorf("Loops: %v, want the one retry loop", got)
		}
	})
	t.Run("bounded loop", func(t *testing.T) {
		r := fp.RetryOf(ssatest.Call(t, p.Func(t, "boundedLoop"), updateName))
		if r == nil || r.Loop == nil || !r.Bounded {
			t.Errorf("retry %+v: want a bounded retry loop", r)
		}
	})
	t.Run("no retry", func(t *testing.T) {
		if r := fp.RetryOf(ssatest.Call(t, p.Func(t, "once"), updateName)); r != nil {
			t.Errorf("retry %+v of an Update that runs once", r)
		}
		if r := fp.RetryOf(ssatest.Call(t, p.Func(t, "notARetry"), updateName)); r != nil {
			t.Errorf("retry %+v of an Update in a range loop, which moves on to the next element", r)
		}
	})
}

func TestErrorFate(t *testing.T) {
	p, fp := build(t, `
func returned(ctx context.Context, c Widgets, w *Widget) error {
	_, err := c.Update(ctx, w, metav1.UpdateOptions{})
	return err
}

func dropped(ctx context.Context, c Widgets, w *Widget) {
	c.Update(ctx, w, metav1.UpdateOptions{})
}

func logged(ctx context.Context, c Widgets, w *Widget) {
	if _, err := c.Update(ctx, w, metav1.UpdateOptions{}); err != nil {
		klog.ErrorS(err, "update failed")
	}
}

func swallowed(ctx context.Context, c Widgets, w *Widget) error {
	_, err := c.Update(ctx, w, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		return nil
	}
	return err
}

func notFoundIgnored(ctx context.Context, c Widgets, w *Widget) error {
	_, err := c.Update(ctx, w, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func droppedOnErrorPath(ctx context.Context, c Widgets, w *Widget, cause error) error {
	c.Update(ctx, w, metav1.UpdateOptions{})
	return cause
}

func droppedWithDefer(ctx context.Context, c Widgets, w *Widget, cause error) error {
	defer flush()
	if cause != nil {
		c.Update(ctx, w, metav1.UpdateOptions{})
		return nil
	}
	return nil
}

func droppedInHelper(ctx context.Context, c Widgets, w *Widget) {
	c.Update(ctx, w, metav1.UpdateOptions{})
}

func callsHelperThenFails(ctx context.Context, c Widgets, w *Widget, cause error) error {
	droppedInHelper(ctx, c, w)
	return cause
}

func conflictAnswersFalse(ctx context.Context, c Widgets, w *Widget) (bool, error) {
	_, err := c.Update(ctx, w, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		return false, nil
	}
	return err == nil, err
}

func conflictAnswersTrue(ctx context.Context, c Widgets, w *Widget) (bool, error) {
	_, err := c.Update(ctx, w, metav1.UpdateOptions{})
	if err == nil {
		return true, nil
	}
	if apierrors.IsConflict(err) {
		return true, nil
	}
	return false, err
}

func flush() {}

func deferredFailure(ctx context.Context, c Widgets, w *Widget) (err error) {
	defer func() {
		_, uerr := c.Update(ctx, w, metav1.UpdateOptions{})
		if uerr == nil {
			return
		}
		if apierrors.IsConflict(uerr) {
			if err == nil {
				err = context.Canceled
			}
			return
		}
		err = uerr
	}()
	return nil
}

func deferredIgnored(ctx context.Context, c Widgets, w *Widget) (err error) {
	defer func() {
		_, uerr := c.Update(ctx, w, metav1.UpdateOptions{})
		if apierrors.IsConflict(uerr) {
			return
		}
		klog.ErrorS(uerr, "update failed")
	}()
	return nil
}
`)
	for _, tc := range []struct {
		fn   string
		want flow.Fate
	}{
		{"returned", flow.Handled},
		{"dropped", flow.Dropped},
		{"logged", flow.Logged},
		{"swallowed", flow.Swallowed},
		{"notFoundIgnored", flow.Handled},
		{"droppedOnErrorPath", flow.Handled},
		{"droppedWithDefer", flow.Dropped},
		{"droppedInHelper", flow.Handled},
		{"conflictAnswersFalse", flow.Handled},
		{"conflictAnswersTrue", flow.Swallowed},
		{"deferredFailure$1", flow.Handled},
		{"deferredIgnored$1", flow.Swallowed},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			fn := p.Func(t, strings.Split(tc.fn, "$")[0])
			if strings.Contains(tc.fn, "$") {
				fn = fn.AnonFuncs[0]
			}
			update := ssatest.Call(t, fn, updateName)
			var err ssa.Value
			for _, r := range *update.Referrers() {
				if e, ok := r.(*ssa.Extract); ok && e.Index == 1 {
					err = e
				}
			}
			fate, check := fp.ErrorFate(err, update)
			if fate != tc.want {
				t.Fatalf("fate %v, want %v", fate, tc.want)
			}
			if (fate == flow.Swallowed) != (check != nil) {
				t.Errorf("check %v with fate %v: want the IsConflict call for a swallowed conflict only", check, fate)
			}
		})
	}
}

// TestRetryLoopShapes checks loops that retry every error, and counters
// that the conflict path does not advance.
func TestRetryLoopShapes(t *testing.T) {
	p, fp := build(t, `
func everyError(ctx context.Context, c Widgets, w *Widget) error {
	_, err := c.Update(ctx, w, metav1.UpdateOptions{})
	for i := 0; i < 3 && err != nil; i++ {
		_, err = c.Update(ctx, w, metav1.UpdateOptions{})
	}
	return err
}

func worker(ctx context.Context, c Widgets, names []string) {
	for {
		w, err := c.Get(ctx, "w", metav1.GetOptions{})
		if err != nil {
			continue
		}
		if _, err := c.Update(ctx, w, metav1.UpdateOptions{}); err != nil {
			klog.ErrorS(err, "not written")
		}
	}
}

func conflictSkipsCount(ctx context.Context, c Widgets) error {
	var err error
	for i := 0; i < 5; {
		var w *Widget
		w, err = c.Get(ctx, "w", metav1.GetOptions{})
		if err != nil {
			return err
		}
		_, err = c.Update(ctx, w, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			continue
		}
		if err == nil {
			return nil
		}
		i++
	}
	return err
}

func conflictCounts(ctx context.Context, c Widgets) error {
	var err error
	for i := 0; i < 5; {
		var w *Widget
		w, err = c.Get(ctx, "w", metav1.GetOptions{})
		if err != nil {
			return err
		}
		_, err = c.Update(ctx, w, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			i++
			continue
		}
		return err
	}
	return err
}
`)
	t.Run("every error", func(t *testing.T) {
		calls := ssatest.Calls(p.Func(t, "everyError"), updateName)
		if len(calls) != 2 {
			t.Fatalf("%d Updates, want 2", len(calls))
		}
		if r := fp.RetryOf(calls[0]); r != nil {
			t.Errorf("retry %+v of the first attempt, before the loop", r)
		}
		r := fp.RetryOf(calls[1])
		if r == nil || r.Loop == nil || r.Loop.NilCheck == nil || r.ConflictOnly || !r.Bounded {
			t.Fatalf("retry %+v: want a bounded loop that retries every error", r)
		}
		if !slices.Contains(r.Loop.Attempts, ssa.CallInstruction(calls[1])) {
			t.Errorf("attempts %v, want the Update in the loop", r.Loop.Attempts)
		}
	})
	t.Run("worker", func(t *testing.T) {
		if r := fp.RetryOf(ssatest.Call(t, p.Func(t, "worker"), updateName)); r != nil {
			t.Errorf("retry %+v of a write the loop goes on after whether it failed or not", r)
		}
	})
	t.Run("counter", func(t *testing.T) {
		if r := fp.RetryOf(ssatest.Call(t, p.Func(t, "conflictSkipsCount"), updateName)); r == nil || r.Bounded {
			t.Errorf("retry %+v: want an unbounded loop, whose conflict path does not advance the counter", r)
		}
		if r := fp.RetryOf(ssatest.Call(t, p.Func(t, "conflictCounts"), updateName)); r == nil || !r.Bounded {
			t.Errorf("retry %+v: want a bounded loop", r)
		}
	})
}

// TestLoopsDeterministic checks that what makes a loop a retry does not
// depend on the order of a map: a loop with two nil checks of errors, each
// of whose failure can go round the loop and success leave it, is read the
// same way by every analysis of the package (the blocks of a loop are
// walked in the function's order).
func TestLoopsDeterministic(t *testing.T) {
	const src = `
func moveToNode(ctx context.Context, c Widgets, node int) error {
	for i := 0; i < 20; i++ {
		w, err := c.Get(ctx, "w", metav1.GetOptions{})
		if err != nil {
			klog.ErrorS(err, "get")
		} else if w.Size != node {
			w.Size = node
			if _, err := c.Update(ctx, w, metav1.UpdateOptions{}); err != nil {
				klog.ErrorS(err, "update")
			} else {
				return nil
			}
		}
		if err != nil {
			continue
		}
		return nil
	}
	return nil
}
`
	var first string
	for i := 0; i < 30; i++ {
		p, fp := build(t, src)
		ls := fp.Loops(p.Func(t, "moveToNode"))
		if len(ls) != 1 || ls[0].NilCheck == nil {
			t.Fatalf("Loops: %+v, want one loop that retries on an error", ls)
		}
		got := p.SSA.Prog.Fset.Position(ls[0].NilCheck.Pos()).String()
		for _, a := range ls[0].Attempts {
			got += " " + a.Common().Value.Name()
		}
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("analysis %d: nil check %s, analysis 0: %s", i, got, first)
		}
	}
}
