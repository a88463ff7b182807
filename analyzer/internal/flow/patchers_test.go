package flow_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssatest"
)

// crStubs stub controller-runtime's client: the names the client model
// knows a merge patch and a Patch call by.
var crStubs = map[string]string{
	"sigs.k8s.io/controller-runtime/pkg/client": `package client

import "context"

type Object interface {
	GetResourceVersion() string
	DeepCopyObject() Object
}
type Patch interface{ Data(obj Object) ([]byte, error) }
type MergeFromOption interface{ ApplyToMergeFrom() }
type MergeFromWithOptimisticLock struct{}

func (MergeFromWithOptimisticLock) ApplyToMergeFrom() {}

func MergeFrom(obj Object) Patch                                     { return nil }
func MergeFromWithOptions(obj Object, opts ...MergeFromOption) Patch { return nil }

type PatchOption interface{ ApplyToPatch() }
type SubResourcePatchOption interface{ ApplyToSubResourcePatch() }
type SubResourceWriter interface {
	Patch(ctx context.Context, obj Object, patch Patch, opts ...SubResourcePatchOption) error
}
type Client interface {
	Patch(ctx context.Context, obj Object, patch Patch, opts ...PatchOption) error
	Status() SubResourceWriter
}
`,
}

const patchersSrc = `package test

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Wrapper(original, updated client.Object, c client.Client) error {
	return c.Patch(context.Background(), updated, client.MergeFrom(original))
}

func Locked(original, updated client.Object, c client.Client) error {
	return c.Patch(context.Background(), updated, client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{}))
}

func Given(ctx context.Context, c client.Client, obj client.Object, p client.Patch) error {
	return c.Patch(ctx, obj, p)
}

// Copies patches a copy of obj from another copy: what changes, changes
// inside it.
func Copies(obj client.Object, c client.Client) error {
	update := obj.DeepCopyObject()
	original := obj.DeepCopyObject()
	return Wrapper(original, update, c)
}

type Patcher struct {
	c      client.Client
	before client.Object
}

func NewPatcher(obj client.Object, c client.Client) *Patcher {
	return &Patcher{c: c, before: obj.DeepCopyObject()}
}

func (p *Patcher) Patch(ctx context.Context, obj client.Object) error {
	return p.c.Patch(ctx, p.copyOf(obj), client.MergeFrom(p.snapshot()))
}

func (p *Patcher) snapshot() client.Object { return p.before.DeepCopyObject() }

func (p *Patcher) copyOf(obj client.Object) client.Object { return obj.DeepCopyObject() }

// PatchStatus is a patcher's status patch: not followed.
func (p *Patcher) PatchStatus(ctx context.Context, obj client.Object) error {
	return p.c.Status().Patch(ctx, obj, client.MergeFrom(p.before))
}

func Through(ctx context.Context, obj client.Object, p *Patcher) error {
	return p.Patch(ctx, obj)
}

// Made makes the patcher it patches with: the snapshot is parameter 0.
func Made(ctx context.Context, obj, updated client.Object, c client.Client) error {
	return NewPatcher(obj, c).Patch(ctx, updated)
}
`

// TestPatchSummaries checks the summaries of patch wrappers and patchers:
// which parameter a merge patch goes from and to, the patch a wrapper is
// given, and the copy a constructor keeps in a field.
func TestPatchSummaries(t *testing.T) {
	p := ssatest.Build(t, patchersSrc, crStubs)
	fp := flow.New(p.SSA, p.Funcs(), flow.Options{}, noFacts{})
	for fn, want := range map[string]string{
		"Wrapper":                "patches parameter 1 with a merge patch from parameter 0, without a lock",
		"Locked":                 "",
		"Given":                  "patches parameter 2 with a merge patch from a patch passed as parameter 3",
		"Copies":                 "",
		"NewPatcher":             "the constructor stores a copy of parameter 0 in field before",
		"(*Patcher).Patch":       "Patch sends a merge patch from field before of the receiver to parameter 2, without a lock",
		"(*Patcher).PatchStatus": "",
		"Through":                "sends a merge patch from field before of parameter 2 to parameter 1, without a lock",
		"Made":                   "patches parameter 2 with a merge patch from parameter 1, without a lock",
	} {
		var got string
		if f := fp.Fact(funcNamed(t, p, fn)); f != nil {
			got = f.String()
		}
		if want == "" {
			for _, bad := range []string{"merge patch", "stores a copy"} {
				if contains(got, bad) {
					t.Errorf("%s: %q, want no patch between parameters", fn, got)
				}
			}
			continue
		}
		if !contains(got, want) {
			t.Errorf("%s: %q, want it to say %q", fn, got, want)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// funcNamed finds a function or method by its name relative to the
// package: F, (*T).M.
func funcNamed(t *testing.T, p *ssatest.Package, name string) *ssa.Function {
	t.Helper()
	for _, fn := range p.Funcs() {
		if fn.RelString(p.Types) == name {
			return fn
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}
