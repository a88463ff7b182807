package model

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssatest"
)

func TestUnvendor(t *testing.T) {
	for in, want := range map[string]string{
		"k8s.io/client-go/util/retry":                                                 "k8s.io/client-go/util/retry",
		"github.com/foo/bar/vendor/k8s.io/client-go/util/retry":                       "k8s.io/client-go/util/retry",
		"vendor/k8s.io/api/core/v1":                                                   "k8s.io/api/core/v1",
		"github.com/foo/bar/vendor/k8s.io/client-go/util/retry.OnError":               "k8s.io/client-go/util/retry.OnError",
		"(*github.com/foo/bar/vendor/k8s.io/apimachinery/pkg/runtime.Scheme).Convert": "(*k8s.io/apimachinery/pkg/runtime.Scheme).Convert",
		"(github.com/a/b/vendor/github.com/c/d/vendor/k8s.io/x.T).M":                  "(k8s.io/x.T).M",
		"github.com/foo/vendorutil/k8s.io/x":                                          "github.com/foo/vendorutil/k8s.io/x",
		"github.com/foo/myvendor/x":                                                   "github.com/foo/myvendor/x",
	} {
		if got := Unvendor(in); got != want {
			t.Errorf("Unvendor(%q) = %q, want %q", in, got, want)
		}
	}
}

// vendor is the directory of a GOPATH-mode project that vendors the client
// libraries: its packages import them by these paths.
const vendor = "github.com/foo/bar/vendor/"

// legacyStubs are client-go before v0.18 at vendored paths.
var legacyStubs = map[string]string{
	vendor + MetaV1: `package v1
		type ObjectMeta struct{ Name, ResourceVersion string }
		type GetOptions struct{ ResourceVersion string }
		type ListOptions struct{ ResourceVersion string }
		type DeleteOptions struct{}`,
	vendor + APITypes: `package types
		type PatchType string
		type NamespacedName struct{ Namespace, Name string }`,
	vendor + CoreV1: `package v1
		import metav1 "` + vendor + MetaV1 + `"
		type Pod struct{ metav1.ObjectMeta }
		type PodList struct{ Items []Pod }`,
	vendor + APIErrors: `package errors; func IsConflict(err error) bool { return false }`,
	vendor + Retry: `package retry
		type Backoff struct{ Steps int }
		var DefaultRetry Backoff
		func RetryOnConflict(b Backoff, fn func() error) error { return fn() }`,
	vendor + "k8s.io/client-go/kubernetes/typed/core/v1": `package v1
		import (
			corev1 "` + vendor + CoreV1 + `"
			metav1 "` + vendor + MetaV1 + `"
			types "` + vendor + APITypes + `"
		)
		type PodInterface interface {
			Get(name string, options metav1.GetOptions) (*corev1.Pod, error)
			List(opts metav1.ListOptions) (*corev1.PodList, error)
			Create(pod *corev1.Pod) (*corev1.Pod, error)
			Update(pod *corev1.Pod) (*corev1.Pod, error)
			UpdateStatus(pod *corev1.Pod) (*corev1.Pod, error)
			Delete(name string, options *metav1.DeleteOptions) error
			Patch(name string, pt types.PatchType, data []byte, subresources ...string) (*corev1.Pod, error)
		}`,
}

const legacySrc = `package p

import (
	corev1 "` + vendor + CoreV1 + `"
	apierrors "` + vendor + APIErrors + `"
	metav1 "` + vendor + MetaV1 + `"
	types "` + vendor + APITypes + `"
	"` + vendor + Retry + `"
	typed "` + vendor + `k8s.io/client-go/kubernetes/typed/core/v1"
)

func get(c typed.PodInterface)          { c.Get("a", metav1.GetOptions{}) }
func list(c typed.PodInterface)         { c.List(metav1.ListOptions{}) }
func create(c typed.PodInterface)       { c.Create(&corev1.Pod{}) }
func update(c typed.PodInterface)       { c.Update(&corev1.Pod{}) }
func updateStatus(c typed.PodInterface) { c.UpdateStatus(&corev1.Pod{}) }
func del(c typed.PodInterface)          { c.Delete("a", nil) }
func patch(c typed.PodInterface)        { c.Patch("a", types.PatchType("x"), nil) }
func conflict(err error)                { apierrors.IsConflict(err) }
func retries()                          { retry.RetryOnConflict(retry.DefaultRetry, func() error { return nil }) }

// store has a write of the shape of a typed client's, but no typed Get:
// it is not a client.
type store struct{}

func (store) Update(pod *corev1.Pod) (*corev1.Pod, error) { return pod, nil }
func (store) Patch(name string, pt types.PatchType, data []byte) (*corev1.Pod, error) {
	return nil, nil
}

func storeUpdate(s store) { s.Update(&corev1.Pod{}) }
func storePatch(s store)  { s.Patch("a", "x", nil) }
`

// onlyCall returns the only call of a function other than a builtin.
func onlyCall(t *testing.T, pkg *ssatest.Package, name string) *ssa.CallCommon {
	t.Helper()
	var out []*ssa.CallCommon
	for _, b := range pkg.Func(t, name).Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if _, builtin := c.Common().Value.(*ssa.Builtin); !builtin {
					out = append(out, c.Common())
				}
			}
		}
	}
	if len(out) != 1 {
		t.Fatalf("%s: %d calls, want 1", name, len(out))
	}
	return out[0]
}

// TestLegacyTyped checks the calls of client-gen typed clientsets before
// client-go v0.18 (no context, no write options), here vendored in GOPATH
// mode: the catalog asks its questions of the path without the vendor
// directory.
func TestLegacyTyped(t *testing.T) {
	pkg := ssatest.Build(t, legacySrc, legacyStubs)
	for name, want := range map[string]Call{
		"get":          {Op: OpRead, Client: Typed, Method: "Get", Obj: -1, Result: 0, Opts: 1, Name: -1, PatchType: -1, Data: -1, Patch: -1, Err: 1},
		"list":         {Op: OpRead, Client: Typed, Method: "List", List: true, Obj: -1, Result: 0, Opts: 0, Name: -1, PatchType: -1, Data: -1, Patch: -1, Err: 1},
		"create":       {Op: OpCreate, Client: Typed, Method: "Create", Obj: 0, Result: 0, Opts: -1, Name: -1, PatchType: -1, Data: -1, Patch: -1, Err: 1},
		"update":       {Op: OpUpdate, Client: Typed, Method: "Update", Obj: 0, Result: 0, Opts: -1, Name: -1, PatchType: -1, Data: -1, Patch: -1, Err: 1},
		"updateStatus": {Op: OpUpdate, Client: Typed, Method: "UpdateStatus", Obj: 0, Result: 0, Opts: -1, Name: -1, PatchType: -1, Data: -1, Patch: -1, Err: 1, Subresource: "status"},
		"del":          {Op: OpDelete, Client: Typed, Method: "Delete", Obj: -1, Result: -1, Opts: 1, Name: -1, PatchType: -1, Data: -1, Patch: -1, Err: 0},
		"patch":        {Op: OpPatch, Client: Typed, Method: "Patch", Obj: -1, Result: 0, Opts: -1, Name: 0, PatchType: 1, Data: 2, Patch: -1, Err: 1},
	} {
		got, ok := Classify(onlyCall(t, pkg, name))
		if !ok || got != want {
			t.Errorf("Classify(%s) = %+v, %v\n\twant %+v", name, got, ok, want)
		}
	}
	for _, name := range []string{"storeUpdate", "storePatch"} {
		if got, ok := Classify(onlyCall(t, pkg, name)); ok {
			t.Errorf("Classify(%s) = %+v: a method of a type without a typed client's Get taken for a client call", name, got)
		}
	}
	if !CallsIsConflict(onlyCall(t, pkg, "conflict")) {
		t.Error("vendored apierrors.IsConflict not recognised")
	}
	if f, ok := FuncOf(onlyCall(t, pkg, "retries")); !ok || f.Kind != FuncRetry || f.Retries != RetriesConflict {
		t.Errorf("vendored retry.RetryOnConflict: %+v, %v", f, ok)
	}
	imports := map[string]*types.Package{}
	for _, imp := range pkg.Types.Imports() {
		imports[imp.Path()] = imp
	}
	pod, meta := imports[vendor+CoreV1], imports[vendor+MetaV1]
	podType := pod.Scope().Lookup("Pod").Type()
	if !IsObject(podType) || !IsAPIGroup(pod.Path()) || !IsModelled(pod.Path()) || PkgPath(pod) != CoreV1 {
		t.Errorf("vendored %s: IsObject %v, IsAPIGroup %v, IsModelled %v, PkgPath %q", pod.Path(),
			IsObject(podType), IsAPIGroup(pod.Path()), IsModelled(pod.Path()), PkgPath(pod))
	}
	objectMeta := meta.Scope().Lookup("ObjectMeta").Type()
	if rv := objectMeta.Underlying().(*types.Struct).Field(1); !IsRVField(objectMeta, rv) || !IssuesRV(objectMeta) {
		t.Error("vendored ObjectMeta.ResourceVersion not taken for a resourceVersion")
	}
}
