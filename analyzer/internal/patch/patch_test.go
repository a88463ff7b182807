package patch_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssatest"
)

// The functions of src pass a patch to send, whose argument is the patch
// data a test evaluates.
const src = `package test

import (
	"encoding/json"
	"fmt"
)

func send(data []byte) {}

type scale struct {
	Replicas int32  ` + "`json:\"replicas,omitempty\"`" + `
	Internal string ` + "`json:\"-\"`" + `
}

func jsonPatchWithTest(rv string) {
	send([]byte(fmt.Sprintf(` + "`" + `[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"replace","path":"/spec/replicas","value":3}]` + "`" + `, rv)))
}

func jsonPatchByIndex(i int, image string) {
	send([]byte(fmt.Sprintf(` + "`" + `[{"op":"replace","path":"/spec/containers/%d/image","value":%q}]` + "`" + `, i, image)))
}

func jsonPatchAppend() {
	send([]byte(` + "`" + `[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/cleanup"}]` + "`" + `))
}

func mergeWithRV(rv string, labels map[string]string) {
	data, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": rv, "labels": labels},
	})
	send(data)
}

func mergeWithList(finalizers []string) {
	data, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{"finalizers": finalizers},
	})
	send(data)
}

func mergeOfStruct(n int32, s string) {
	data, _ := json.Marshal(map[string]any{"spec": &scale{Replicas: n, Internal: s}})
	send(data)
}

func mergeConcatenated(owner string) {
	send([]byte("{\"metadata\":{\"labels\":{\"owner\":\"" + owner + "\"}}}"))
}

func mergeConcatenatedNumber(n string) {
	send([]byte("{\"spec\":{\"replicas\":" + n + "}}"))
}

func opaque(data []byte) {
	send(data)
}

type op struct {
	Op    string ` + "`json:\"op\"`" + `
	Path  string ` + "`json:\"path\"`" + `
	Value any    ` + "`json:\"value,omitempty\"`" + `
}

func jsonPatchOpsInLoop(finalizers []string, drop string) {
	var ops []map[string]any
	for i, f := range finalizers {
		if f == drop {
			ops = append(ops, map[string]any{"op": "remove", "path": fmt.Sprintf("/metadata/finalizers/%d", i)})
		}
	}
	data, _ := json.Marshal(ops)
	send(data)
}

func jsonPatchStructOpsInLoop(rv string, n int, ca []byte) {
	ops := []op{{Op: "test", Path: "/metadata/resourceVersion", Value: rv}}
	for i := 0; i < n; i++ {
		ops = append(ops, op{Op: "replace", Path: fmt.Sprintf("/webhooks/%d/clientConfig/caBundle", i), Value: ca})
	}
	data, _ := json.Marshal(ops)
	send(data)
}

func jsonPatchAppendsInLoop(want []string) {
	ops := make([]op, 0, len(want))
	for _, f := range want {
		ops = append(ops, op{Op: "add", Path: "/metadata/finalizers/-", Value: f})
	}
	data, _ := json.Marshal(ops)
	send(data)
}

func newRemove(path string) op {
	return op{Op: "remove", Path: path}
}

func jsonPatchOpsOfConstructor(i int) {
	data, _ := json.Marshal([]op{newRemove(fmt.Sprintf("/metadata/finalizers/%d", i))})
	send(data)
}

func jsonPatchOpsSetByIndex(n int) {
	ops := make([]op, n)
	for i := range ops {
		ops[i] = op{Op: "remove", Path: fmt.Sprintf("/metadata/finalizers/%d", i)}
	}
	data, _ := json.Marshal(ops)
	send(data)
}
`

// data returns the argument of the send call in the function fn of src.
func data(t *testing.T, p *ssatest.Package, fn string) ssa.Value {
	t.Helper()
	return ssatest.Call(t, p.Func(t, fn), "example.com/test.send").Call.Args[0]
}

func TestRaw(t *testing.T) {
	p := ssatest.Build(t, src, nil)

	t.Run("JSON patch with a test op", func(t *testing.T) {
		info := patch.Raw(patch.TypeJSON, data(t, p, "jsonPatchWithTest"), nil)
		if !info.Known || info.Kind != patch.KindBody || info.Type != patch.TypeJSON {
			t.Fatalf("Known %v, Kind %v, Type %v: want a known JSON patch body", info.Known, info.Kind, info.Type)
		}
		if !info.HasTest || !info.HasPrecondition() {
			t.Errorf("HasTest %v, HasPrecondition %v: want the test op to be a precondition", info.HasTest, info.HasPrecondition())
		}
		var ops []string
		for _, op := range info.Ops {
			ops = append(ops, op.Op+" "+op.Path)
		}
		if want := []string{"test /metadata/resourceVersion", "replace /spec/replicas"}; !slices.Equal(ops, want) {
			t.Errorf("ops %q, want %q", ops, want)
		}
		if len(info.Ops) == 2 && len(info.Ops[0].Value) != 1 {
			t.Errorf("the test op's value holds %d values of the program, want 1 (rv)", len(info.Ops[0].Value))
		}
		if info.Site == nil || info.Site.Call.Value.Name() != "Sprintf" {
			t.Errorf("Site %v, want the fmt.Sprintf call", info.Site)
		}
	})

	t.Run("JSON patch of an element by a computed index", func(t *testing.T) {
		info := patch.Raw(patch.TypeJSON, data(t, p, "jsonPatchByIndex"), nil)
		if !info.Known || len(info.Ops) != 1 {
			t.Fatalf("Known %v, %d ops: want one known op", info.Known, len(info.Ops))
		}
		op := info.Ops[0]
		if op.Path != "/spec/containers/{}/image" || !op.Indexed || len(op.PathHoles) != 1 {
			t.Errorf("path %q, Indexed %v, %d path holes: want /spec/containers/{}/image, indexed by the one computed segment", op.Path, op.Indexed, len(op.PathHoles))
		}
		if info.HasPrecondition() {
			t.Error("a precondition in a patch without a test op")
		}
	})

	t.Run("JSON patch appending to a list", func(t *testing.T) {
		info := patch.Raw(patch.TypeJSON, data(t, p, "jsonPatchAppend"), nil)
		if !info.Known || len(info.Ops) != 1 {
			t.Fatalf("Known %v, %d ops: want one known op", info.Known, len(info.Ops))
		}
		if op := info.Ops[0]; op.Op != "add" || op.Indexed || len(op.Value) != 0 {
			t.Errorf("op %+v: want an add at the end (\"-\" is not an index) of a constant", op)
		}
	})

	t.Run("merge patch carrying the resourceVersion", func(t *testing.T) {
		info := patch.Raw(patch.TypeMerge, data(t, p, "mergeWithRV"), nil)
		if !info.Known || !info.HasRV || !info.HasPrecondition() {
			t.Fatalf("Known %v, HasRV %v: want a known body with metadata.resourceVersion", info.Known, info.HasRV)
		}
		if info.Site == nil || info.Site.Call.Value.Name() != "Marshal" {
			t.Errorf("Site %v, want the json.Marshal call", info.Site)
		}
		var paths []string
		for _, h := range info.Holes {
			paths = append(paths, h.Path)
		}
		if want := []string{"metadata.labels", "metadata.resourceVersion"}; !slices.Equal(paths, want) {
			t.Errorf("holes at %q, want %q", paths, want)
		}
	})

	t.Run("merge patch of a list", func(t *testing.T) {
		info := patch.Raw(patch.TypeMerge, data(t, p, "mergeWithList"), nil)
		if !info.Known || info.HasPrecondition() {
			t.Fatalf("Known %v, HasPrecondition %v: want a known body without a precondition", info.Known, info.HasPrecondition())
		}
		if len(info.Holes) != 1 || info.Holes[0].Path != "metadata.finalizers" || !info.Holes[0].List {
			t.Errorf("holes %+v, want the list metadata.finalizers", info.Holes)
		}
	})

	t.Run("merge patch of a struct, by its json names", func(t *testing.T) {
		info := patch.Raw(patch.TypeMerge, data(t, p, "mergeOfStruct"), nil)
		if !info.Known {
			t.Fatal("not known")
		}
		if len(info.Holes) != 1 || info.Holes[0].Path != "spec.replicas" || info.Holes[0].List {
			t.Errorf("holes %+v, want the value spec.replicas (and nothing of the field tagged json:\"-\")", info.Holes)
		}
	})

	t.Run("merge patch concatenated as a string", func(t *testing.T) {
		info := patch.Raw(patch.TypeMerge, data(t, p, "mergeConcatenated"), nil)
		if !info.Known || len(info.Holes) != 1 || info.Holes[0].Path != "metadata.labels.owner" {
			t.Errorf("Known %v, holes %+v: want the value metadata.labels.owner", info.Known, info.Holes)
		}
		// A value of the program spliced in outside a JSON string leaves
		// text that is not JSON: not known, so never a finding.
		if info := patch.Raw(patch.TypeMerge, data(t, p, "mergeConcatenatedNumber"), nil); info.Known {
			t.Errorf("Known for a body that is not JSON until run: %+v", info)
		}
	})

	t.Run("unknown type: the shape decides", func(t *testing.T) {
		if info := patch.Body(data(t, p, "jsonPatchAppend"), nil); info.Type != patch.TypeJSON {
			t.Errorf("a list body: type %v, want %v", info.Type, patch.TypeJSON)
		}
		if info := patch.Body(data(t, p, "mergeWithList"), nil); info.Type != patch.TypeUnknown || !info.Known || len(info.Holes) != 1 {
			t.Errorf("an object body: type %v, Known %v, holes %d: want a known body of unknown type with its hole", info.Type, info.Known, len(info.Holes))
		}
	})

	t.Run("JSON patch of maps appended in a loop", func(t *testing.T) {
		info := patch.Raw(patch.TypeJSON, data(t, p, "jsonPatchOpsInLoop"), nil)
		if !info.Known || len(info.Ops) != 1 {
			t.Fatalf("Known %v, %d ops: want the one op the loop appends", info.Known, len(info.Ops))
		}
		if op := info.Ops[0]; op.Op != "remove" || op.Path != "/metadata/finalizers/{}" || !op.Indexed {
			t.Errorf("op %+v: want a remove of /metadata/finalizers/{}, indexed by the formatted index", op)
		}
		if info.HasPrecondition() {
			t.Error("a precondition in a patch without a test op")
		}
	})

	t.Run("JSON patch of structs after a test op", func(t *testing.T) {
		info := patch.Raw(patch.TypeJSON, data(t, p, "jsonPatchStructOpsInLoop"), nil)
		if !info.Known || !info.HasTest {
			t.Fatalf("Known %v, HasTest %v: want a known patch with its test op", info.Known, info.HasTest)
		}
		var ops []string
		for _, op := range info.Ops {
			ops = append(ops, op.Op+" "+op.Path)
		}
		if want := []string{"test /metadata/resourceVersion", "replace /webhooks/{}/clientConfig/caBundle"}; !slices.Equal(ops, want) {
			t.Errorf("ops %q, want %q", ops, want)
		}
	})

	t.Run("JSON patch appends to the end in a loop", func(t *testing.T) {
		info := patch.Raw(patch.TypeJSON, data(t, p, "jsonPatchAppendsInLoop"), nil)
		if !info.Known || len(info.Ops) != 1 || info.Ops[0].Indexed || info.Ops[0].Op != "add" {
			t.Errorf("Known %v, ops %+v: want one add at \"-\", not indexed", info.Known, info.Ops)
		}
	})

	t.Run("JSON patch of ops a constructor builds", func(t *testing.T) {
		info := patch.Raw(patch.TypeJSON, data(t, p, "jsonPatchOpsOfConstructor"), nil)
		if !info.Known || len(info.Ops) != 1 {
			t.Fatalf("Known %v, %d ops: want the op newRemove returns", info.Known, len(info.Ops))
		}
		if op := info.Ops[0]; op.Op != "remove" || op.Path != "/metadata/finalizers/{}" || !op.Indexed {
			t.Errorf("op %+v: want a remove of /metadata/finalizers/{}, indexed by the caller's formatted index", op)
		}
	})

	t.Run("JSON patch of ops set by index: not followed", func(t *testing.T) {
		if info := patch.Raw(patch.TypeJSON, data(t, p, "jsonPatchOpsSetByIndex"), nil); info.Known {
			t.Errorf("Known for a list of zero values set by index: %+v", info)
		}
	})

	t.Run("data the code got elsewhere", func(t *testing.T) {
		info := patch.Raw(patch.TypeMerge, data(t, p, "opaque"), nil)
		if info.Known {
			t.Errorf("Known for a parameter's data: %+v", info)
		}
		if info.HasPrecondition() {
			t.Error("a precondition in data the analysis cannot see")
		}
	})

	t.Run("Server-Side Apply", func(t *testing.T) {
		info := patch.Raw(patch.TypeApply, data(t, p, "opaque"), nil)
		if !info.Known || info.Kind != patch.KindApply {
			t.Errorf("Known %v, Kind %v: want a known apply", info.Known, info.Kind)
		}
	})
}

func TestTypeOf(t *testing.T) {
	p := ssatest.Build(t, `package test

func use(patchType string) {}

func f(s string) {
	use("application/json-patch+json")
	use("application/merge-patch+json")
	use("application/strategic-merge-patch+json")
	use("application/apply-patch+yaml")
	use("text/plain")
	use(s)
}
`, nil)
	want := []patch.Type{patch.TypeJSON, patch.TypeMerge, patch.TypeStrategic, patch.TypeApply, patch.TypeUnknown, patch.TypeUnknown}
	calls := ssatest.Calls(p.Func(t, "f"), "example.com/test.use")
	if len(calls) != len(want) {
		t.Fatalf("%d calls, want %d", len(calls), len(want))
	}
	for i, c := range calls {
		if got := patch.TypeOf(c.Call.Args[0]); got != want[i] {
			t.Errorf("call %d: %v, want %v", i, got, want[i])
		}
	}
}

// crClient is a stub of controller-runtime's client package: the patch
// constructors, by their names.
const crClient = `package client

type Object interface{ GetName() string }

type Patch interface{ Data(obj Object) ([]byte, error) }

type MergeFromOptions struct{ OptimisticLock bool }

type MergeFromOption interface{ ApplyToMergeFrom(*MergeFromOptions) }

type MergeFromWithOptimisticLock struct{}

func (MergeFromWithOptimisticLock) ApplyToMergeFrom(*MergeFromOptions) {}

func MergeFrom(obj Object) Patch { return nil }

func MergeFromWithOptions(obj Object, opts ...MergeFromOption) Patch { return nil }

func StrategicMergeFrom(obj Object, opts ...MergeFromOption) Patch { return nil }

var Apply, Merge Patch
`

func TestControllerRuntime(t *testing.T) {
	p := ssatest.Build(t, `package test

import "sigs.k8s.io/controller-runtime/pkg/client"

type Widget struct{ Name string }

func (w *Widget) GetName() string { return w.Name }

func (w *Widget) DeepCopy() *Widget { c := *w; return &c }

func patchWith(p client.Patch) {}

func f(w *Widget) {
	patchWith(client.MergeFrom(w.DeepCopy()))
	patchWith(client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{}))
	patchWith(client.StrategicMergeFrom(w))
	patchWith(client.Apply)
	patchWith(client.Merge)
}
`, map[string]string{"sigs.k8s.io/controller-runtime/pkg/client": crClient})
	calls := ssatest.Calls(p.Func(t, "f"), "example.com/test.patchWith")
	if len(calls) != 5 {
		t.Fatalf("%d calls, want 5", len(calls))
	}
	w := p.Func(t, "f").Params[0]
	for i, tc := range []struct {
		typ      patch.Type
		kind     patch.Kind
		fn       string
		lock     bool
		deepCopy bool // the snapshot is a DeepCopy of w
	}{
		{patch.TypeMerge, patch.KindDiff, "MergeFrom", false, true},
		{patch.TypeMerge, patch.KindDiff, "MergeFromWithOptions", true, true},
		{patch.TypeStrategic, patch.KindDiff, "StrategicMergeFrom", false, false},
		{patch.TypeApply, patch.KindApply, "", false, false},
		{patch.TypeMerge, patch.KindObject, "", false, false},
	} {
		info := patch.ControllerRuntime(calls[i].Call.Args[0], nil)
		if !info.Known || info.Type != tc.typ || info.Kind != tc.kind || info.Fn != tc.fn || info.Lock != tc.lock {
			t.Errorf("call %d: Known %v, Type %v, Kind %v, Fn %q, Lock %v; want Type %v, Kind %v, Fn %q, Lock %v",
				i, info.Known, info.Type, info.Kind, info.Fn, info.Lock, tc.typ, tc.kind, tc.fn, tc.lock)
			continue
		}
		if info.HasPrecondition() != tc.lock {
			t.Errorf("call %d: HasPrecondition %v, want %v", i, info.HasPrecondition(), tc.lock)
		}
		if tc.kind != patch.KindDiff {
			continue
		}
		if !tc.deepCopy {
			// The constructor takes the object itself: the snapshot is
			// taken by the call.
			if info.Snapshot != ssa.Instruction(info.Site) {
				t.Errorf("call %d: snapshot %v, want the call %v", i, info.Snapshot, info.Site)
			}
			continue
		}
		if info.Base != w {
			t.Errorf("call %d: the diff starts from %v, want the object w", i, info.Base)
		}
		if c, isCall := info.Snapshot.(*ssa.Call); !isCall || c.Call.StaticCallee() == nil || c.Call.StaticCallee().Name() != "DeepCopy" {
			t.Errorf("call %d: snapshot %v, want the DeepCopy call", i, info.Snapshot)
		}
	}
}
