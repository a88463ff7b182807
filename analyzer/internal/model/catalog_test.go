package model

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// stubs are the packages the test sources import, reduced to the
// declarations the catalog looks at: the catalog matches by package path
// and name, so a stub stands for the library (and for the standard
// library, which the test does not load).
var stubs = map[string]string{
	"context": `package context
		type Context interface{ Done() <-chan struct{} }
		type CancelFunc func()
		func Background() Context { return nil }
		func TODO() Context { return nil }
		func WithTimeout(parent Context, d int64) (Context, CancelFunc) { return nil, nil }
		func WithCancel(parent Context) (Context, CancelFunc) { return nil, nil }`,
	"time": `package time
		type Duration int64
		type Time struct{ ns int64 }
		func Sleep(d Duration) {}
		func Now() Time { return Time{} }
		func (t Time) After(u Time) bool { return false }`,
	"fmt":           `package fmt; func Sprintf(format string, a ...any) string { return "" }`,
	"strconv":       `package strconv; func Atoi(s string) (int, error) { return 0, nil }`,
	"sort":          `package sort; type StringSlice []string`,
	"encoding/json": `package json; func Marshal(v any) ([]byte, error) { return nil, nil }; func Unmarshal(b []byte, v any) error { return nil }`,
	UtilJSON:        `package json; func Marshal(v any) ([]byte, error) { return nil, nil }`,
	SigsYAML:        `package yaml; func Marshal(v any) ([]byte, error) { return nil, nil }`,
	JSONPatchV5: `package jsonpatch
		type Patch []int
		func (p Patch) Apply(doc []byte) ([]byte, error) { return nil, nil }
		func CreateMergePatch(a, b []byte) ([]byte, error) { return nil, nil }
		func MergePatch(doc, patch []byte) ([]byte, error) { return nil, nil }`,
	StrategicPatch: `package strategicpatch
		func CreateTwoWayMergePatch(a, b []byte, dataStruct any) ([]byte, error) { return nil, nil }`,
	MetaV1: `package v1
		type ObjectMeta struct {
			Name            string ` + "`json:\"name,omitempty\"`" + `
			ResourceVersion string ` + "`json:\"resourceVersion,omitempty\"`" + `
			Finalizers      []string ` + "`json:\"finalizers,omitempty\" patchStrategy:\"merge\"`" + `
		}
		type ListOptions struct{ ResourceVersion string }
		type PartialObjectMetadata struct{ ObjectMeta }
		type Condition struct{ Type string }
		type Object interface{ GetName() string }
		func (m *ObjectMeta) GetName() string { return m.Name }
		func (m *ObjectMeta) SetFinalizers(f []string) { m.Finalizers = f }`,
	Meta: `package meta
		import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
		func FindStatusCondition(c []metav1.Condition, t string) *metav1.Condition { return nil }`,
	APIErrors: `package errors
		func IsConflict(err error) bool { return false }
		func IsInvalid(err error) bool { return false }`,
	Watch: `package watch
		type EventType string
		const Bookmark EventType = "BOOKMARK"
		const Added EventType = "ADDED"`,
	Unstructured: `package unstructured
		type Unstructured struct{ Object map[string]any }
		func SetNestedField(obj map[string]any, value any, fields ...string) error { return nil }
		func SetNestedStringSlice(obj map[string]any, value []string, fields ...string) error { return nil }
		func RemoveNestedField(obj map[string]any, fields ...string) {}`,
	CRClient: `package client
		import (
			"context"
			metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
		)
		type Object interface{ metav1.Object }
		type Patch interface{ Data(obj Object) ([]byte, error) }
		type MergeFromOption interface{ ApplyToMergeFrom() }
		type MergeFromWithOptimisticLock struct{}
		func (MergeFromWithOptimisticLock) ApplyToMergeFrom() {}
		type ForceOwnershipOption struct{}
		var ForceOwnership = ForceOwnershipOption{}
		var Apply Patch
		var Merge Patch
		func MergeFrom(obj Object) Patch { return nil }
		func MergeFromWithOptions(obj Object, opts ...MergeFromOption) Patch { return nil }
		func RawPatch(pt string, data []byte) Patch { return nil }
		type PatchOption interface{ ApplyToPatch() }
		type Writer interface {
			Patch(ctx context.Context, obj Object, patch Patch, opts ...PatchOption) error
		}`,
	CRUtil: `package controllerutil
		import "sigs.k8s.io/controller-runtime/pkg/client"
		func AddFinalizer(o client.Object, f string) bool { return false }
		func RemoveFinalizer(o client.Object, f string) bool { return false }
		func SetControllerReference(owner, object client.Object, scheme any) error { return nil }`,
	CR: `package controllerruntime
		import "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
		var SetControllerReference = controllerutil.SetControllerReference`,
	"slices": `package slices
		func Index[S ~[]E, E comparable](s S, v E) int { return -1 }
		func DeleteFunc[S ~[]E, E any](s S, del func(E) bool) S { return s }
		func SortFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {}`,
	"example.com/mine": `package mine
		func Marshal(v any) ([]byte, error) { return nil, nil }
		func IsConflict(err error) bool { return false }`,
}

// stubImporter type-checks the stubs on demand.
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
	conf := types.Config{Importer: im}
	p, err := conf.Check(path, im.fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, err
	}
	im.pkgs[path] = p
	return p, nil
}

// build type-checks and builds the SSA of a package of test code.
func build(t *testing.T, src string) *ssa.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	im := &stubImporter{fset: fset, pkgs: map[string]*types.Package{}}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: im}, fset, types.NewPackage("example.com/p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// calls returns the calls of the functions a package declares, by the
// function's name, in the order of the blocks.
func calls(pkg *ssa.Package, name string) []*ssa.CallCommon {
	var out []*ssa.CallCommon
	fn := pkg.Func(name)
	if fn == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if _, builtin := c.Common().Value.(*ssa.Builtin); !builtin {
					out = append(out, c.Common())
				}
			}
		}
	}
	return out
}

// one returns the only call of a function.
func one(t *testing.T, pkg *ssa.Package, name string) *ssa.CallCommon {
	t.Helper()
	cs := calls(pkg, name)
	if len(cs) != 1 {
		t.Fatalf("%s: %d calls, want 1", name, len(cs))
	}
	return cs[0]
}

const rolesSrc = `package p

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"slices"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	apijson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/yaml"

	"example.com/mine"
)

var obj = &metav1.ObjectMeta{}
var owner = &metav1.ObjectMeta{}
var doc, data []byte
var patch jsonpatch.Patch
var u = &unstructured.Unstructured{}

func encStd()     { stdjson.Marshal(obj) }
func encAPI()     { apijson.Marshal(obj) }
func encYAML()    { yaml.Marshal(obj) }
func encMine()    { mine.Marshal(obj) }
func decStd()     { stdjson.Unmarshal(data, obj) }
func diffMerge()  { jsonpatch.CreateMergePatch(doc, data) }
func diffSMP()    { strategicpatch.CreateTwoWayMergePatch(doc, data, obj) }
func applyMerge() { jsonpatch.MergePatch(doc, data) }
func applyPatch() { patch.Apply(doc) }
func crMerge()    { client.MergeFrom(obj) }
func crLock()     { client.MergeFromWithOptions(obj, client.MergeFromWithOptimisticLock{}) }
func crRaw()      { client.RawPatch("application/merge-patch+json", data) }
func crVars() (client.Patch, client.Patch, any) { return client.Apply, client.Merge, client.ForceOwnership }
func finalizer()  { controllerutil.AddFinalizer(obj, "f") }
func unfinalize() { controllerutil.RemoveFinalizer(obj, "f") }
func ownerRef()   { controllerutil.SetControllerReference(owner, obj, nil) }
func ctrlOwnerRef() { ctrl.SetControllerReference(owner, obj, nil) }
func setFin()     { obj.SetFinalizers(nil) }
func deleteFunc(l []string) { slices.DeleteFunc(l, func(string) bool { return false }) }

func RemoveStringInSlice(s string, list []string) []string { return list }

func removeInSlice(l []string) { RemoveStringInSlice("a", l) }

func RemoveLists(a, b []string) []string { return a }

func removeTwo(l []string) { RemoveLists(l, l) }
func index(l []string) { slices.Index(l, "f") }
func sortFunc(l []string) { slices.SortFunc(l, func(a, b string) int { return 0 }) }
func viaIface(o client.Object) { o.GetName() }
func nestedSet()  { unstructured.SetNestedField(u.Object, "x", "spec", "a") }
func nestedList() { unstructured.SetNestedStringSlice(u.Object, nil, "spec", "b") }
func nestedDel()  { unstructured.RemoveNestedField(u.Object, "spec", "c") }
func findCond(c []metav1.Condition) { meta.FindStatusCondition(c, "Ready") }
func format()     { fmt.Sprintf("%v", obj) }
func conflict(err error) { apierrors.IsConflict(err) }
func invalid(err error)  { apierrors.IsInvalid(err) }
func mineConflict(err error) { mine.IsConflict(err) }
func sleep()      { time.Sleep(1) }
func deadline(t time.Time) { time.Now().After(t) }
func ctxRoot()    { context.Background() }
func ctxTimeout() { context.WithTimeout(context.TODO(), 1) }
func ctxCancel(ctx context.Context) { context.WithCancel(ctx) }
func crPatch(w client.Writer, o client.Object, p client.Patch) { w.Patch(context.TODO(), o, p) }

type patchHelper struct{}

func (patchHelper) patch(ctx context.Context, o client.Object, opts ...client.PatchOption) error { return nil }
func crHelper(h patchHelper, o client.Object) { h.patch(context.TODO(), o) }
`

func TestRoles(t *testing.T) {
	pkg := build(t, rolesSrc)

	t.Run("encoders", func(t *testing.T) {
		for name, want := range map[string]bool{"encStd": true, "encAPI": true, "encYAML": true, "encMine": false, "decStd": false} {
			if got := IsEncoder(one(t, pkg, name)); got != want {
				t.Errorf("IsEncoder(%s) = %v, want %v", name, got, want)
			}
		}
	})

	t.Run("patch builders", func(t *testing.T) {
		for name, want := range map[string]string{"diffMerge": "CreateMergePatch", "diffSMP": "CreateTwoWayMergePatch", "encStd": ""} {
			d, ok := PatchBuilder(one(t, pkg, name))
			if d.Fn != want || ok != (want != "") {
				t.Errorf("PatchBuilder(%s) = %+v, %v; want %q", name, d, ok, want)
			}
			if ok && (d.Base != 0 || d.Modified != 1) {
				t.Errorf("PatchBuilder(%s): arguments %d, %d", name, d.Base, d.Modified)
			}
		}
	})

	t.Run("patch appliers", func(t *testing.T) {
		for _, name := range []string{"applyMerge", "applyPatch"} {
			c := one(t, pkg, name)
			d, ok := PatchApplier(c)
			if !ok {
				t.Fatalf("PatchApplier(%s) not recognised", name)
			}
			// The document, never the method's receiver.
			if g, isLoad := d.(*ssa.UnOp); !isLoad || g.X.(*ssa.Global).Name() != "doc" {
				t.Errorf("PatchApplier(%s) = %v, want the load of doc", name, d)
			}
		}
		if _, ok := PatchApplier(one(t, pkg, "diffMerge")); ok {
			t.Error("CreateMergePatch taken for an applier")
		}
	})

	t.Run("controller-runtime writes", func(t *testing.T) {
		// The client's Patch(ctx, obj, patch, opts...); a method of the same
		// options that takes no patch is a helper, not a client call.
		cs := calls(pkg, "crPatch")
		if c, ok := Classify(cs[len(cs)-1]); !ok || c.Op != OpPatch || c.Obj != 1 || c.Patch != 2 {
			t.Errorf("Classify(Writer.Patch) = %+v, %v; want a Patch of argument 1 with the patch 2", c, ok)
		}
		cs = calls(pkg, "crHelper")
		if c, ok := Classify(cs[len(cs)-1]); ok {
			t.Errorf("Classify(patchHelper.patch) = %+v: a method without a patch taken for a client Patch", c)
		}
	})

	t.Run("controller-runtime patches", func(t *testing.T) {
		for name, want := range map[string]CRPatch{
			"crMerge": {Kind: CRMerge, Fn: "MergeFrom", Base: 0, Opts: -1, Type: -1, Data: -1},
			"crLock":  {Kind: CRMerge, Fn: "MergeFromWithOptions", Base: 0, Opts: 1, Type: -1, Data: -1},
			"crRaw":   {Kind: CRRaw, Fn: "RawPatch", Base: -1, Opts: -1, Type: 0, Data: 1},
		} {
			got, ok := CRPatchOf(one(t, pkg, name))
			if !ok || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("CRPatchOf(%s) = %+v, %v; want %+v", name, got, ok, want)
			}
		}
		var globals []string
		for _, m := range pkg.Prog.AllPackages() {
			if m.Pkg.Path() != CRClient {
				continue
			}
			for _, mem := range m.Members {
				if g, ok := mem.(*ssa.Global); ok && token.IsExported(g.Name()) {
					v, isPatch := CRPatchVarOf(g)
					globals = append(globals, fmt.Sprintf("%s:%v:%v:%v", g.Name(), v, isPatch, IsForceOwnership(g)))
				}
			}
		}
		sort.Strings(globals)
		if got, want := strings.Join(globals, " "), "Apply:1:true:false ForceOwnership:0:false:true Merge:2:true:false"; got != want {
			t.Errorf("globals of client: %s, want %s", got, want)
		}
	})

	t.Run("list changes", func(t *testing.T) {
		for name, want := range map[string]ListChange{
			"finalizer":  {0, "finalizers", true, false},
			"unfinalize": {0, "finalizers", true, true},
			"ownerRef":   {1, "ownerReferences", true, false},
			// ctrl.SetControllerReference, a variable holding it.
			"ctrlOwnerRef": {1, "ownerReferences", true, false},
		} {
			if got, ok := ListMutator(one(t, pkg, name)); !ok || got != want {
				t.Errorf("ListMutator(%s) = %+v, %v; want %+v", name, got, ok, want)
			}
		}
		c := one(t, pkg, "setFin")
		if got, ok := ListMethod(CalledName(c)); !ok || got.Field != "finalizers" || !got.Merge {
			t.Errorf("ListMethod(%s) = %+v, %v", CalledName(c), got, ok)
		}
		if got := CalledName(one(t, pkg, "viaIface")); got != "GetName" {
			t.Errorf("CalledName of an interface call = %q", got)
		}
		if _, ok := ListMethod("SetLabels"); ok {
			t.Error("SetLabels taken for a list method")
		}
		if i, ok := ListPart(one(t, pkg, "deleteFunc")); !ok || i != 0 {
			t.Errorf("ListPart(slices.DeleteFunc) = %d, %v; want 0, true", i, ok)
		}
		if i, ok := ListPart(one(t, pkg, "removeInSlice")); !ok || i != 1 {
			t.Errorf("ListPart(RemoveStringInSlice(s, list)) = %d, %v; want 1, true", i, ok)
		}
		if _, ok := ListPart(one(t, pkg, "removeTwo")); ok {
			t.Error("RemoveLists(a, b) taken for a part of one of its lists")
		}
		if _, ok := ListPart(one(t, pkg, "index")); ok {
			t.Error("slices.Index taken for a part of a list")
		}
		if !SortsList(one(t, pkg, "sortFunc")) || SortsList(one(t, pkg, "index")) {
			t.Errorf("SortsList(slices.SortFunc) = %v, SortsList(slices.Index) = %v; want true, false",
				SortsList(one(t, pkg, "sortFunc")), SortsList(one(t, pkg, "index")))
		}
	})

	t.Run("unstructured", func(t *testing.T) {
		for name, want := range map[string]NestedOp{"nestedSet": NestedSet, "nestedList": NestedSetSlice, "nestedDel": NestedRemove} {
			if got, ok := NestedOpOf(one(t, pkg, name)); !ok || got != want {
				t.Errorf("NestedOpOf(%s) = %v, %v; want %v", name, got, ok, want)
			}
		}
	})

	t.Run("read only", func(t *testing.T) {
		for name, want := range map[string]bool{"findCond": true, "format": true, "encStd": true, "finalizer": false, "diffMerge": false} {
			if got := IsReadOnly(one(t, pkg, name)); got != want {
				t.Errorf("IsReadOnly(%s) = %v, want %v", name, got, want)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		if !CallsIsConflict(one(t, pkg, "conflict")) || CallsIsConflict(one(t, pkg, "mineConflict")) {
			t.Error("CallsIsConflict")
		}
		if !CallsIsInvalid(one(t, pkg, "invalid")) || CallsIsInvalid(one(t, pkg, "conflict")) {
			t.Error("CallsIsInvalid")
		}
		conflict := one(t, pkg, "conflict").StaticCallee().Object().(*types.Func)
		mine := one(t, pkg, "mineConflict").StaticCallee().Object().(*types.Func)
		if !IsConflictFunc(conflict) || IsConflictFunc(mine) {
			t.Error("IsConflictFunc")
		}
	})

	t.Run("clock and context", func(t *testing.T) {
		if !Waits(one(t, pkg, "sleep")) || Waits(one(t, pkg, "format")) {
			t.Error("Waits")
		}
		cs := calls(pkg, "deadline") // time.Now, Time.After
		if len(cs) != 2 || ComparesTime(cs[0]) || !ComparesTime(cs[1]) {
			t.Error("ComparesTime")
		}
		if got := ContextOf(one(t, pkg, "ctxRoot")); got != CtxRoot {
			t.Errorf("Background: %v", got)
		}
		cs = calls(pkg, "ctxTimeout") // TODO, WithTimeout
		if len(cs) != 2 || ContextOf(cs[0]) != CtxRoot || ContextOf(cs[1]) != CtxDeadline {
			t.Error("ContextOf(WithTimeout(TODO()))")
		}
		if got := ContextOf(one(t, pkg, "ctxCancel")); got != CtxDerived {
			t.Errorf("WithCancel: %v", got)
		}
	})
}

const typesSrc = `package p

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
)

type Widget struct {
	metav1.ObjectMeta
	Spec WidgetSpec
}

type WidgetSpec struct {
	ResourceVersion string
	Replicas        int
}

type Partial struct {
	metav1.PartialObjectMetadata
}

type Versions sort.StringSlice

var (
	meta    metav1.ObjectMeta
	opts    metav1.ListOptions
	u       unstructured.Unstructured
	bm      = watch.Bookmark
	added   = watch.Added
	ss      sort.StringSlice
	mine    Versions
)
`

func TestTypes(t *testing.T) {
	pkg := build(t, typesSrc)
	typ := func(name string) types.Type {
		obj := pkg.Pkg.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("no %s", name)
		}
		return obj.Type()
	}
	field := func(tt types.Type, name string) *types.Var {
		st := tt.Underlying().(*types.Struct)
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Name() == name {
				return st.Field(i)
			}
		}
		t.Fatalf("no field %s", name)
		return nil
	}
	meta, opts := typ("meta"), typ("opts")
	if !IsRVField(meta, field(meta, "ResourceVersion")) || !IsRVField(types.NewPointer(meta), field(meta, "ResourceVersion")) {
		t.Error("ObjectMeta.ResourceVersion not a resourceVersion field")
	}
	if IsRVField(meta, field(meta, "Name")) {
		t.Error("ObjectMeta.Name taken for a resourceVersion")
	}
	if !IsRVField(opts, field(opts, "ResourceVersion")) {
		t.Error("ListOptions.ResourceVersion not a resourceVersion field")
	}
	spec := typ("WidgetSpec")
	if IsRVField(spec, field(spec, "ResourceVersion")) {
		t.Error("a program's own ResourceVersion field taken for the API's")
	}
	if !IssuesRV(meta) || IssuesRV(opts) {
		t.Error("IssuesRV: ObjectMeta issues versions, ListOptions names one")
	}
	w := typ("Widget")
	if got := EmbeddedMeta(field(w, "ObjectMeta").Type()); got != MetaObject {
		t.Errorf("EmbeddedMeta(ObjectMeta) = %v", got)
	}
	if got := EmbeddedMeta(field(typ("Partial"), "PartialObjectMetadata").Type()); got != MetaPartial {
		t.Errorf("EmbeddedMeta(PartialObjectMetadata) = %v", got)
	}
	if !InMetaV1(meta) || InMetaV1(w) {
		t.Error("InMetaV1")
	}
	if !IsObject(w) || !IsObject(types.NewPointer(w)) || IsObject(spec) || !IsObject(typ("u")) {
		t.Error("IsObject")
	}
	if !IsObjectMeta(meta) || IsObjectMeta(opts) || !IsUnstructured(typ("u")) {
		t.Error("IsObjectMeta, IsUnstructured")
	}
	if !IsStringSlice(typ("ss")) || IsStringSlice(typ("mine")) {
		t.Error("IsStringSlice: sort.StringSlice, not a type defined from it")
	}
	constOf := func(name string) (types.Type, *types.Const) {
		for _, m := range pkg.Prog.AllPackages() {
			if m.Pkg.Path() == Watch {
				c := m.Pkg.Scope().Lookup(name).(*types.Const)
				return c.Type(), c
			}
		}
		t.Fatal("no watch package")
		return nil, nil
	}
	bt, bc := constOf("Bookmark")
	at, ac := constOf("Added")
	if !IsBookmark(bt, bc.Val()) || IsBookmark(at, ac.Val()) {
		t.Error("IsBookmark")
	}
}

func TestStringFuncs(t *testing.T) {
	if s, ok := ParseSink("strconv.Atoi"); !ok || s.Result != 0 || len(s.Args) != 1 {
		t.Errorf("ParseSink(strconv.Atoi) = %+v, %v", s, ok)
	}
	if _, ok := ParseSink("strings.Compare"); ok {
		t.Error("strings.Compare taken for a parse")
	}
	if s, ok := SinkOf("strings.Compare"); !ok || s.Kind != SinkOrder || !s.Zero {
		t.Errorf("SinkOf(strings.Compare) = %+v, %v", s, ok)
	}
	if s, ok := SinkOf("slices.SortFunc"); !ok || s.Cmp != 1 || len(s.Elems) != 1 {
		t.Errorf("SinkOf(slices.SortFunc) = %+v, %v", s, ok)
	}
	if s, ok := SinkOf("(encoding/json.Number).Int64"); !ok || !s.Recv {
		t.Errorf("SinkOf(json.Number.Int64) = %+v, %v", s, ok)
	}
	if !IsSinkFunc(CompareResourceVersion) || !IsSinkFunc("sort.Strings") || IsSinkFunc("strings.TrimSpace") || IsSinkFunc(NestedString) {
		t.Error("IsSinkFunc")
	}
	if !IsCompareFunc("cmp.Compare") || IsCompareFunc("cmp.Less") {
		t.Error("IsCompareFunc")
	}
	if !IsPassFunc("strings.TrimSpace") || IsPassFunc("strings.ToUpper") {
		t.Error("IsPassFunc")
	}
	if e, ok := ContainerOf("maps.Keys"); !ok || e != KeysElems {
		t.Error("ContainerOf(maps.Keys)")
	}
	if !IsFormatFunc("strconv.Itoa") || IsFormatFunc("strconv.Atoi") {
		t.Error("IsFormatFunc")
	}
}

func TestPackages(t *testing.T) {
	for path, want := range map[string]bool{
		"k8s.io/api":                       true,
		"k8s.io/api/core/v1":               true,
		"k8s.io/apiserver/pkg/storage":     true,
		"sigs.k8s.io/controller-runtime":   true,
		"k8s.io/apimachinery-extra":        false,
		"k8s.io/klog/v2":                   false,
		"sigs.k8s.io/yaml":                 false,
		"example.com/k8s.io/api":           false,
		"github.com/evanphx/json-patch/v5": false,
	} {
		if got := IsModelled(path); got != want {
			t.Errorf("IsModelled(%s) = %v, want %v", path, got, want)
		}
	}
	if !IsAPIGroup("k8s.io/api/apps/v1") || IsAPIGroup("k8s.io/apimachinery/pkg/apis/meta/v1") || IsAPIGroup("k8s.io/api") {
		t.Error("IsAPIGroup")
	}
	if !IsAPIServerStorage("k8s.io/apiserver/pkg/storage/etcd3") || !IsAPIServerStorage("go.etcd.io/etcd/client/v3") || IsAPIServerStorage("k8s.io/apiserver/pkg/server") {
		t.Error("IsAPIServerStorage")
	}
	if !IsKubernetesImport("sigs.k8s.io/yaml") || IsKubernetesImport("github.com/evanphx/json-patch") {
		t.Error("IsKubernetesImport")
	}
	if !IsLogging("k8s.io/klog/v2") || !IsLogging("log/slog") || IsLogging("fmt") {
		t.Error("IsLogging")
	}
	for path, want := range map[string]bool{
		"testing":                                    true,
		"testing/fstest":                             true,
		"github.com/onsi/ginkgo/v2":                  true,
		"github.com/onsi/gomega":                     true,
		"github.com/onsi/gomega/gstruct":             true,
		"github.com/stretchr/testify/require":        true,
		"example.com/testing":                        false,
		"k8s.io/client-go/testing":                   false, // the fakes' object tracker: production code may hold one
		"github.com/onsi/gomegaextra":                false,
		"sigs.k8s.io/controller-runtime/pkg/envtest": false,
	} {
		if got := IsTestPackage(path); got != want {
			t.Errorf("IsTestPackage(%s) = %v, want %v", path, got, want)
		}
	}
	for path, want := range map[string]bool{
		"k8s.io/client-go/kubernetes/fake":               true,
		"k8s.io/client-go/dynamic/fake":                  true,
		"sigs.k8s.io/controller-runtime/pkg/client/fake": true,
		"example.com/op/pkg/clientset/versioned/fake":    true,
		"fake":                        true,
		"k8s.io/client-go/kubernetes": false,
		"example.com/op/pkg/fakeish":  false,
		"example.com/op/pkg/clientset/versioned/fakedata": false,
	} {
		if got := IsFakePackage(path); got != want {
			t.Errorf("IsFakePackage(%s) = %v, want %v", path, got, want)
		}
	}
	fakePkg := types.NewPackage("k8s.io/client-go/kubernetes/fake", "fake")
	realPkg := types.NewPackage("k8s.io/client-go/kubernetes", "kubernetes")
	named := func(pkg *types.Package, name string) *types.Named {
		return types.NewNamed(types.NewTypeName(0, pkg, name, nil), types.NewStruct(nil, nil), nil)
	}
	fakeCS, realCS := named(fakePkg, "Clientset"), named(realPkg, "Clientset")
	for _, tc := range []struct {
		t    types.Type
		want bool
	}{
		{types.NewPointer(fakeCS), true},
		{fakeCS, true},
		{types.NewPointer(realCS), false},
		{types.Typ[types.Int], false},
	} {
		if got := IsFakeType(tc.t); got != tc.want {
			t.Errorf("IsFakeType(%s) = %v, want %v", tc.t, got, tc.want)
		}
	}
}

// TestCatalogNamesLibraries holds the catalog to its list of libraries:
// every function it names is in the standard library or in one of
// Libraries, so that the test of the other packages knows every library.
func TestCatalogNamesLibraries(t *testing.T) {
	var names []string
	for _, m := range []map[string]bool{encoders, readOnlyFuncs, waitFuncs, compareFuncs, passFuncs, formatFuncs} {
		for n := range m {
			names = append(names, n)
		}
	}
	for n := range funcs {
		names = append(names, n)
	}
	for n := range errFuncs {
		names = append(names, n)
	}
	for n := range patchDiffs {
		names = append(names, n)
	}
	for n := range patchAppliers {
		names = append(names, n)
	}
	for n := range crPatches {
		names = append(names, n)
	}
	for n := range listMutators {
		names = append(names, n)
	}
	for n := range nestedOps {
		names = append(names, n)
	}
	for n, fn := range funcVars {
		names = append(names, n, fn)
	}
	for n := range listParts {
		names = append(names, n)
	}
	for n := range listSorters {
		names = append(names, n)
	}
	for n := range sinks {
		names = append(names, n)
	}
	for n := range containerFuncs {
		names = append(names, n)
	}
	for n := range ctxFuncs {
		names = append(names, n)
	}
	for n := range builderNews {
		names = append(names, n)
	}
	for p := range logPackages {
		names = append(names, p+".F")
	}
	for _, m := range Modelled {
		names = append(names, m+".F")
	}
	if len(names) < 100 {
		t.Fatalf("only %d names", len(names))
	}
	for _, n := range names {
		pkg := strings.TrimLeft(n, "(*")
		pkg = pkg[:strings.LastIndexByte(pkg, '.')]
		if i := strings.IndexByte(pkg, ')'); i >= 0 {
			pkg = pkg[:i]
		}
		if i := strings.LastIndexByte(pkg, '.'); i > strings.LastIndexByte(pkg, '/') && strings.Contains(pkg, "/") {
			// (path.Type).Method: drop the type.
			if strings.HasPrefix(n, "(") {
				pkg = pkg[:i]
			}
		}
		first, _, _ := strings.Cut(pkg, "/")
		if !strings.Contains(first, ".") {
			continue // the standard library
		}
		if _, ok := libraryPath(pkg); !ok {
			t.Errorf("%s: package %s is not under one of Libraries", n, pkg)
		}
	}
}

func TestShortName(t *testing.T) {
	for full, want := range map[string]string{
		"k8s.io/client-go/util/retry.RetryOnConflict":  "retry.RetryOnConflict",
		"(*math/big.Int).SetString":                    "big.Int.SetString",
		"(*example.com/x.T).M":                         "x.T.M",
		"(example.com/x.T).M":                          "x.T.M",
		"strconv.Atoi":                                 "strconv.Atoi",
		"(error).Error":                                "error.Error",
		CompareResourceVersion:                         "resourceversion.CompareResourceVersion",
		"(gopkg.in/evanphx/json-patch.v4.Patch).Apply": "json-patch.v4.Patch.Apply",
		"example.com/a/b.F":                            "b.F",
	} {
		if got := ShortName(full); got != want {
			t.Errorf("ShortName(%q) = %q, want %q", full, got, want)
		}
	}
}

func TestJSONName(t *testing.T) {
	for _, tc := range []struct{ field, tag, want string }{
		{"Spec", `json:"spec"`, "spec"},
		{"Spec", `json:"spec,omitempty"`, "spec"},
		{"Foo", ``, "Foo"},                  // encoding/json writes the Go name
		{"Foo", `json:",omitempty"`, "Foo"}, // only options
		{"Foo", `yaml:"foo"`, "Foo"},
		{"Foo", `json:"-"`, "-"}, // not encoded
		{"Foo", `json:"-,"`, "-"},
		{"Ports", `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"containerPort"`, "ports"},
		{"X", `protobuf:"bytes,1,opt,name=x" json:"x"`, "x"},
	} {
		if got := JSONName(tc.field, tc.tag); got != tc.want {
			t.Errorf("JSONName(%s, %s) = %q, want %q", tc.field, tc.tag, got, tc.want)
		}
	}
	if got := Tag(`json:"a" patchStrategy:"merge,retainKeys"`, "patchStrategy"); got != "merge,retainKeys" {
		t.Errorf("Tag = %q", got)
	}
}

// TestFixedIndex: an index into a Pod's containers names the same container
// for the Pod's life; an index into a list anyone may change does not.
func TestFixedIndex(t *testing.T) {
	named := func(path, name string) types.Type {
		pkg := types.NewPackage(path, "v1")
		return types.NewPointer(types.NewNamed(types.NewTypeName(0, pkg, name, nil), types.NewStruct(nil, nil), nil))
	}
	pod, deploy := named(CoreV1, "Pod"), named("k8s.io/api/apps/v1", "Deployment")
	for _, tc := range []struct {
		t    types.Type
		ptr  string
		want bool
	}{
		{pod, "/spec/containers/{}/image", true},
		{pod, "/spec/initContainers/0/image", true},
		{pod, "/spec/containers/{}/env/{}/value", false}, // env is a list of its own
		{pod, "/metadata/finalizers/{}", false},
		{pod, "/spec/containers/-", false}, // not an index
		{deploy, "/spec/template/spec/containers/{}/image", false},
		{nil, "/spec/containers/0/image", false},
	} {
		if got := FixedIndex(tc.t, tc.ptr); got != tc.want {
			t.Errorf("FixedIndex(%v, %s) = %v, want %v", tc.t, tc.ptr, got, tc.want)
		}
	}
}
