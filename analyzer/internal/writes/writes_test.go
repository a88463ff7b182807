package writes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
)

// stubs stand for the libraries the test sources import: the model
// recognises client calls by their shape (a context, an object, the metav1
// option type), so a typed client is an interface of that shape.
var stubs = map[string]string{
	"context": `package context
		type Context interface{ Done() <-chan struct{} }`,
	model.MetaV1: `package v1
		type ObjectMeta struct{ Name, ResourceVersion string }
		type GetOptions struct{ ResourceVersion string }
		type UpdateOptions struct{}
		type PatchOptions struct{}
		type ApplyOptions struct{ Force bool }`,
	model.APITypes: `package types
		type PatchType string
		const MergePatchType PatchType = "application/merge-patch+json"
		const JSONPatchType PatchType = "application/json-patch+json"`,
	model.Retry: `package retry
		type Backoff struct{ Steps int }
		var DefaultRetry = Backoff{Steps: 5}
		func RetryOnConflict(b Backoff, fn func() error) error { return fn() }`,
	"example.com/api": `package api
		import (
			"context"
			metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
			"k8s.io/apimachinery/pkg/types"
		)
		type Thing struct{ metav1.ObjectMeta }
		type Things interface {
			Get(ctx context.Context, name string, opts metav1.GetOptions) (*Thing, error)
			Update(ctx context.Context, t *Thing, opts metav1.UpdateOptions) (*Thing, error)
			Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*Thing, error)
			Apply(ctx context.Context, t *Thing, opts metav1.ApplyOptions) (*Thing, error)
		}`,
}

type stubImporter struct {
	fset *token.FileSet
	pkgs map[string]*types.Package
}

func (im *stubImporter) Import(path string) (*types.Package, error) {
	if p, ok := im.pkgs[path]; ok {
		return p, nil
	}
	src, ok := stubs[path]
	if !ok {
		return nil, fmt.Errorf("no stub for %q", path)
	}
	f, err := parser.ParseFile(im.fset, path+"/stub.go", src, 0)
	if err != nil {
		return nil, err
	}
	p, err := (&types.Config{Importer: im}).Check(path, im.fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, err
	}
	im.pkgs[path] = p
	return p, nil
}

const header = `package p

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	"example.com/api"
)

var _ = retry.DefaultRetry
var _ types.PatchType
var _ metav1.GetOptions
var _ context.Context
var _ api.Things
`

// build returns the writes of a package of test code, by the name of the
// function that holds them.
func build(t *testing.T, src string) map[string][]*Write {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", header+src, 0)
	if err != nil {
		t.Fatal(err)
	}
	im := &stubImporter{fset: fset, pkgs: map[string]*types.Package{}}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: im}, fset, types.NewPackage("example.com/p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	var funcs []*ssa.Function
	for _, m := range pkg.Members {
		if fn, ok := m.(*ssa.Function); ok {
			funcs = append(funcs, fn)
			funcs = append(funcs, fn.AnonFuncs...)
		}
	}
	set := Build(flow.New(pkg, funcs, flow.Options{}, nil))
	byFunc := map[string][]*Write{}
	for _, w := range set.All {
		fn := w.Call.Parent()
		for fn.Parent() != nil {
			fn = fn.Parent()
		}
		byFunc[fn.Name()] = append(byFunc[fn.Name()], w)
		if !set.IsWrite(w.Call) {
			t.Errorf("%s: IsWrite of its own call is false", fn.Name())
		}
	}
	return byFunc
}

func only(t *testing.T, ws map[string][]*Write, fn string) *Write {
	t.Helper()
	if len(ws[fn]) != 1 {
		t.Fatalf("%s: %d writes, want 1", fn, len(ws[fn]))
	}
	return ws[fn][0]
}

func TestCondition(t *testing.T) {
	ws := build(t, `
func built(ctx context.Context, c api.Things) {
	c.Update(ctx, &api.Thing{}, metav1.UpdateOptions{})
}

func cleared(ctx context.Context, c api.Things) {
	t, _ := c.Get(ctx, "a", metav1.GetOptions{})
	t.ResourceVersion = ""
	c.Update(ctx, t, metav1.UpdateOptions{})
}

func read(ctx context.Context, c api.Things) {
	t, _ := c.Get(ctx, "a", metav1.GetOptions{})
	c.Update(ctx, t, metav1.UpdateOptions{})
}

func param(ctx context.Context, c api.Things, t *api.Thing) {
	c.Update(ctx, t, metav1.UpdateOptions{})
}

func mergePatch(ctx context.Context, c api.Things) {
	c.Patch(ctx, "a", types.MergePatchType, []byte(`+"`"+`{"spec":{"x":1}}`+"`"+`), metav1.PatchOptions{})
}

func guardedPatch(ctx context.Context, c api.Things) {
	c.Patch(ctx, "a", types.MergePatchType, []byte(`+"`"+`{"metadata":{"resourceVersion":"7"}}`+"`"+`), metav1.PatchOptions{})
}

func apply(ctx context.Context, c api.Things) {
	c.Apply(ctx, &api.Thing{}, metav1.ApplyOptions{})
}
`)
	for _, tc := range []struct {
		fn      string
		verdict Verdict
		reason  Reason
	}{
		{"built", Unconditional, Built},
		{"cleared", Unconditional, Cleared},
		{"read", Conditional, CarriesRV},
		{"param", Conditional, CarriesRV},
		{"mergePatch", Unconditional, NoPrecondition},
		{"guardedPatch", Conditional, Precondition},
		{"apply", Conditional, Ownership},
	} {
		w := only(t, ws, tc.fn)
		c := w.Condition()
		if c.Verdict != tc.verdict || c.Reason != tc.reason {
			t.Errorf("%s: condition %v (reason %d), want %v (reason %d)", tc.fn, c.Verdict, c.Reason, tc.verdict, tc.reason)
		}
		if again := w.Condition(); again.Verdict != c.Verdict || again.Reason != c.Reason {
			t.Errorf("%s: a second Condition differs from the first", tc.fn)
		}
	}

	// The cleared object's evidence is where its resourceVersion is cleared.
	c := only(t, ws, "cleared").Condition()
	if len(c.Evidence) == 0 || c.Evidence[len(c.Evidence)-1].Reason != Cleared || !c.Evidence[len(c.Evidence)-1].Pos.IsValid() {
		t.Errorf("cleared: evidence %+v, want the clearing store last", c.Evidence)
	}
	if info := only(t, ws, "mergePatch").Patch(); info == nil || info.Type != patch.TypeMerge || !info.Known {
		t.Errorf("mergePatch: patch %+v, want a known merge patch", info)
	}
	if !only(t, ws, "apply").IsApply() || only(t, ws, "mergePatch").IsApply() {
		t.Error("IsApply: want true for Apply only")
	}
}

func TestRetryAndFreshness(t *testing.T) {
	ws := build(t, `
func stale(ctx context.Context, c api.Things) error {
	t, _ := c.Get(ctx, "a", metav1.GetOptions{})
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := c.Update(ctx, t, metav1.UpdateOptions{})
		return err
	})
}

func fresh(ctx context.Context, c api.Things) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		t, err := c.Get(ctx, "a", metav1.GetOptions{})
		if err != nil {
			return err
		}
		_, err = c.Update(ctx, t, metav1.UpdateOptions{})
		return err
	})
}

func dropped(ctx context.Context, c api.Things) {
	t, _ := c.Get(ctx, "a", metav1.GetOptions{})
	c.Update(ctx, t, metav1.UpdateOptions{})
}

func returned(ctx context.Context, c api.Things) error {
	t, _ := c.Get(ctx, "a", metav1.GetOptions{})
	_, err := c.Update(ctx, t, metav1.UpdateOptions{})
	return err
}
`)
	w := only(t, ws, "stale")
	if r := w.Retry(); r == nil || r.Fn == nil {
		t.Fatalf("stale: retry %v, want the RetryOnConflict closure", r)
	}
	if fresh, reads := w.FreshInRetry(); fresh || len(reads) != 1 || reads[0].Kind != flow.Read {
		t.Errorf("stale: fresh %v, reads %v; want stale with the Get outside", fresh, reads)
	}
	w = only(t, ws, "fresh")
	if w.Retry() == nil {
		t.Fatal("fresh: no retry")
	}
	if fresh, _ := w.FreshInRetry(); !fresh {
		t.Error("fresh: the object read inside the retry is not fresh")
	}
	w = only(t, ws, "dropped")
	if w.Retry() != nil {
		t.Error("dropped: a retry outside any retry")
	}
	if fresh, _ := w.FreshInRetry(); !fresh {
		t.Error("dropped: a write outside a retry is fresh")
	}
	if fate, _ := w.ErrorFate(); fate != flow.Dropped {
		t.Errorf("dropped: fate %v, want dropped", fate)
	}
	if fate, _ := only(t, ws, "returned").ErrorFate(); fate != flow.Handled {
		t.Errorf("returned: fate %v, want handled", fate)
	}
}

func TestLazy(t *testing.T) {
	n := 0
	var l lazy[int]
	for range 3 {
		if v := l.get(func() int { n++; return 42 }); v != 42 {
			t.Fatalf("get = %d, want 42", v)
		}
	}
	if n != 1 {
		t.Errorf("computed %d times, want once", n)
	}
}
