// Package ssabuild builds SSA for the package under analysis only.
//
// It does what the buildssa pass does, at a fraction of its cost: buildssa
// requires ctrlflow, whose facts make drivers analyse every dependency from
// source. Here the dependencies stay types only, and of them only the
// packages whose functions or variables the code names get SSA packages (the
// builder needs those), so that a package importing k8s.io/api/core/v1 for
// its types does not pay for the thousands of methods declared there.
package ssabuild

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Build returns the SSA package and its source functions (closures
// included, in source order).
func Build(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info) (_ *ssa.Package, _ []*ssa.Function, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("building SSA: %v", r)
		}
	}()
	// BareInits: package initialisers do not call the imports' initialisers,
	// so the imports need no SSA package for that.
	prog := ssa.NewProgram(fset, ssa.BareInits)
	for _, imp := range referencedImports(pkg, info) {
		prog.CreatePackage(imp, nil, nil, true)
	}
	ssapkg := prog.CreatePackage(pkg, withoutGeneratedBodies(files), info, false)
	ssapkg.Build()

	var funcs []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		funcs = append(funcs, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range files {
		if ast.IsGenerated(file) {
			continue
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if fn := prog.FuncValue(obj); fn != nil {
				add(fn)
			}
		}
	}
	if init := ssapkg.Func("init"); init != nil {
		for _, anon := range init.AnonFuncs {
			add(anon)
		}
	}
	return ssapkg, funcs, nil
}

// referencedImports returns the packages other than pkg that declare a
// package-level function or variable the code refers to.
func referencedImports(pkg *types.Package, info *types.Info) []*types.Package {
	seen := map[*types.Package]bool{}
	var out []*types.Package
	for _, obj := range info.Uses {
		p := obj.Pkg()
		if p == nil || p == pkg || seen[p] {
			continue
		}
		switch o := obj.(type) {
		case *types.Func:
			if o.Signature().Recv() != nil {
				continue
			}
		case *types.Var:
			if o.IsField() || o.Parent() != p.Scope() {
				continue
			}
		default:
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// withoutGeneratedBodies returns the files with the bodies of the functions
// of generated files (deepcopy, conversion, clientsets, listers: "Code
// generated ... DO NOT EDIT.") left out: they hold no finding a user could
// act on, what lostupdate needs of them (DeepCopy, client calls) is in the
// client model, and they are often the bulk of a package. The syntax is
// shared, not copied: only the file and declaration nodes are new.
func withoutGeneratedBodies(files []*ast.File) []*ast.File {
	out := make([]*ast.File, len(files))
	for i, f := range files {
		out[i] = f
		if !ast.IsGenerated(f) {
			continue
		}
		nf := *f
		nf.Decls = make([]ast.Decl, len(f.Decls))
		for j, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				nfd := *fd
				nfd.Body = nil
				d = &nfd
			}
			nf.Decls[j] = d
		}
		out[i] = &nf
	}
	return out
}
