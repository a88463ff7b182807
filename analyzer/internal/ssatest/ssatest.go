// Package ssatest builds SSA from small Go sources, for the unit tests of
// the analyzer's internal packages. The sources import the standard library
// (read from its export data) and stub packages given as source: a stub
// declares, at the real import path, just the names a test needs of a
// client library, which the client model recognises by their names. No
// module is loaded, so a test takes milliseconds.
package ssatest

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Package is a package built from source: its syntax, types and SSA.
type Package struct {
	Fset  *token.FileSet
	Files []*ast.File
	Types *types.Package
	Info  *types.Info
	SSA   *ssa.Package
}

// Build type-checks src, the source of a package with the import path
// "example.com/test", and builds its SSA. stubs maps import paths to the
// source of stub packages (nil: none). Build fails the test on an error.
func Build(t testing.TB, src string, stubs map[string]string) *Package {
	t.Helper()
	return BuildFiles(t, []string{src}, stubs)
}

// BuildFiles is Build for a package of several files, test0.go, test1.go,
// ...
func BuildFiles(t testing.TB, srcs []string, stubs map[string]string) *Package {
	t.Helper()
	fset := token.NewFileSet()
	imp := &stubImporter{fset: fset, stubs: stubs, std: importer.Default(), done: map[string]*types.Package{}}
	var files []*ast.File
	for i, src := range srcs {
		f, err := parser.ParseFile(fset, fmt.Sprintf("test%d.go", i), src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	pkg := types.NewPackage("example.com/test", files[0].Name.Name)
	ssapkg, info, err := ssautil.BuildPackage(&types.Config{Importer: imp}, fset, pkg, files, ssa.SanityCheckFunctions|ssa.InstantiateGenerics)
	if err != nil {
		t.Fatal(err)
	}
	return &Package{Fset: fset, Files: files, Types: pkg, Info: info, SSA: ssapkg}
}

type stubImporter struct {
	fset  *token.FileSet
	stubs map[string]string
	std   types.Importer
	done  map[string]*types.Package
}

func (imp *stubImporter) Import(path string) (*types.Package, error) {
	if p, ok := imp.done[path]; ok {
		return p, nil
	}
	src, ok := imp.stubs[path]
	if !ok {
		return imp.std.Import(path)
	}
	f, err := parser.ParseFile(imp.fset, path+"/stub.go", src, 0)
	if err != nil {
		return nil, err
	}
	p, err := (&types.Config{Importer: imp}).Check(path, imp.fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, fmt.Errorf("stub %s: %v", path, err)
	}
	imp.done[path] = p
	return p, nil
}

// Func returns the package-level function name, failing the test if there
// is none.
func (p *Package) Func(t testing.TB, name string) *ssa.Function {
	t.Helper()
	fn := p.SSA.Func(name)
	if fn == nil {
		t.Fatalf("no function %s", name)
	}
	return fn
}

// Funcs returns the package's source functions, closures included, in
// source order: what the analyzer analyses.
func (p *Package) Funcs() []*ssa.Function {
	var out []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		out = append(out, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, f := range p.Files {
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := p.Info.Defs[fd.Name].(*types.Func); ok {
					if fn := p.SSA.Prog.FuncValue(obj); fn != nil {
						add(fn)
					}
				}
			}
		}
	}
	return out
}

// Calls returns the calls in fn and its closures of the function or
// method callee, named as types.Func.FullName spells it
// ("example.com/test.use", "(*example.com/kube.Client).Update").
func Calls(fn *ssa.Function, callee string) []*ssa.Call {
	var out []*ssa.Call
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if f, ok := calleeObject(c.Common()).(*types.Func); ok && f.FullName() == callee {
					out = append(out, c)
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			visit(anon)
		}
	}
	visit(fn)
	return out
}

// Call returns the only call of callee in fn and its closures.
func Call(t testing.TB, fn *ssa.Function, callee string) *ssa.Call {
	t.Helper()
	calls := Calls(fn, callee)
	if len(calls) != 1 {
		t.Fatalf("%s: %d calls of %s, want 1", fn, len(calls), callee)
	}
	return calls[0]
}

func calleeObject(c *ssa.CallCommon) types.Object {
	if c.IsInvoke() {
		return c.Method
	}
	if fn := c.StaticCallee(); fn != nil {
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		return fn.Object()
	}
	return nil
}
