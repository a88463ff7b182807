package ssax

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const src = `package p

type T struct{ n int }
type Named T
type I interface{ M() }

func (*T) M() {}

func conversions(t *T) (any, I, *T, *T) {
	var i I = t       // MakeInterface
	var e any = i     // ChangeInterface
	u := i.(*T)       // TypeAssert that cannot fail (it panics instead)
	v, _ := i.(*T)    // a comma-ok assertion: kept
	return e, i, u, v
}

func named(t T) Named { return Named(t) } // ChangeType

func closures(x int) func() int {
	y := x + 1
	return func() int { return x + y }
}
`

func build(t *testing.T) *ssa.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, types.NewPackage("example.com/p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// results returns the values a function returns.
func results(fn *ssa.Function) []ssa.Value {
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return ret.Results
		}
	}
	return nil
}

func TestStrip(t *testing.T) {
	pkg := build(t)
	fn := pkg.Func("conversions")
	param := fn.Params[0]
	res := results(fn)
	for i, want := range []bool{true, true, true, false} {
		if got := Strip(res[i]) == ssa.Value(param); got != want {
			t.Errorf("result %d (%s): Strip reaches the parameter: %v, want %v", i, res[i], got, want)
		}
	}
	named := pkg.Func("named")
	if got := Strip(results(named)[0]); got != ssa.Value(named.Params[0]) {
		t.Errorf("Strip(ChangeType) = %v, want the parameter", got)
	}
}

func TestConcreteType(t *testing.T) {
	pkg := build(t)
	res := results(pkg.Func("conversions"))
	tp := pkg.Func("conversions").Params[0].Type()
	for i := range 2 {
		if got := ConcreteType(res[i]); !types.Identical(got, tp) {
			t.Errorf("ConcreteType of result %d = %v, want %v", i, got, tp)
		}
	}
	named := pkg.Func("named")
	if got := ConcreteType(results(named)[0]); !types.Identical(got, named.Params[0].Type()) {
		t.Errorf("ConcreteType(Named(t)) = %v, want %v", got, named.Params[0].Type())
	}
}

func TestClosures(t *testing.T) {
	pkg := build(t)
	outer := pkg.Func("closures")
	funcs := append([]*ssa.Function{outer}, outer.AnonFuncs...)
	cs := ClosuresOf(funcs)
	if len(outer.AnonFuncs) != 1 {
		t.Fatalf("%d closures, want 1", len(outer.AnonFuncs))
	}
	cl := outer.AnonFuncs[0]
	mc := cs.Made[cl]
	if mc == nil {
		t.Fatal("the closure's MakeClosure is not found")
	}
	if len(cl.FreeVars) != 2 {
		t.Fatalf("%d free variables, want 2", len(cl.FreeVars))
	}
	for i, fv := range cl.FreeVars {
		if got := cs.Bindings[fv]; got != mc.Bindings[i] {
			t.Errorf("free variable %s bound to %v, want %v", fv.Name(), got, mc.Bindings[i])
		}
	}
	if len(ClosuresOf(nil).Bindings) != 0 {
		t.Error("bindings without functions")
	}
}

func TestIsJSONList(t *testing.T) {
	str := types.Typ[types.String]
	named := types.NewNamed(types.NewTypeName(0, nil, "Bytes", nil), types.NewSlice(types.Typ[types.Byte]), nil)
	for _, tc := range []struct {
		typ  types.Type
		want bool
	}{
		{types.NewSlice(str), true},
		{types.NewSlice(types.NewPointer(str)), true},
		{types.NewSlice(types.Typ[types.Byte]), false}, // base64
		{named, false},
		{str, false},
		{types.NewMap(str, str), false},
	} {
		if got := IsJSONList(tc.typ); got != tc.want {
			t.Errorf("IsJSONList(%s) = %v, want %v", tc.typ, got, tc.want)
		}
	}
}
