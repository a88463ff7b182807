// Package ssabuild builds SSA for the package under analysis only.
//
// It does what the buildssa pass does, at a fraction of its cost: buildssa
// requires ctrlflow, whose facts make drivers analyse every dependency from
// source. Here the dependencies stay types only, and of them only the
// packages whose functions or variables the code names get SSA packages (the
// builder needs those), and each such package holds only the members the
// code names, so that a package importing k8s.io/api/core/v1 for its types,
// or k8s.io/api/core/v1beta2 for its GroupVersion, does not pay for the
// thousands of types and methods declared there.
package ssabuild

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

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
		createImport(prog, imp)
	}
	ssapkg := prog.CreatePackage(pkg, withoutGeneratedBodies(fset, files), info, false)
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
		if Generated(fset, file) {
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

// An import is the part of an imported package that the code refers to:
// its package-level functions and variables.
type import_ struct {
	pkg  *types.Package
	objs []types.Object
}

// referencedImports returns, for each package other than pkg that declares
// a package-level function or variable the code refers to, those objects,
// in the order of their first use in the source.
func referencedImports(pkg *types.Package, info *types.Info) []import_ {
	index := map[*types.Package]int{}
	seen := map[types.Object]bool{}
	var out []import_
	for _, obj := range info.Uses {
		p := obj.Pkg()
		if p == nil || p == pkg || seen[obj] {
			continue
		}
		switch o := obj.(type) {
		case *types.Func:
			if o.Signature().Recv() != nil {
				continue
			}
			// A generic function's instances name its origin.
			obj = o.Origin()
		case *types.Var:
			if o.IsField() || o.Parent() != p.Scope() {
				continue
			}
		default:
			continue
		}
		if seen[obj] {
			continue
		}
		seen[obj] = true
		i, ok := index[p]
		if !ok {
			i = len(out)
			index[p] = i
			out = append(out, import_{pkg: p})
		}
		out[i].objs = append(out[i].objs, obj)
	}
	// info.Uses is a map: sort so that SSA is built the same way every run.
	for i := range out {
		slices.SortFunc(out[i].objs, func(a, b types.Object) int {
			return strings.Compare(a.Name(), b.Name())
		})
	}
	slices.SortFunc(out, func(a, b import_) int { return strings.Compare(a.pkg.Path(), b.pkg.Path()) })
	return out
}

// createImport creates the SSA package of an import with only the members
// the code names. ssa.Program.CreatePackage without syntax creates a member
// for every object of the package and every method of its types; given
// syntax, it creates one for each declaration. So the import is given a
// declaration without a body for each function and variable named, typed
// by the object itself: the builder finds them as members, and, like the
// members created from export data, the functions have no body. The package
// is never built.
func createImport(prog *ssa.Program, imp import_) {
	info := &types.Info{Defs: make(map[*ast.Ident]types.Object, len(imp.objs))}
	file := &ast.File{Name: ast.NewIdent(imp.pkg.Name())}
	for _, obj := range imp.objs {
		id := ast.NewIdent(obj.Name())
		info.Defs[id] = obj
		switch obj.(type) {
		case *types.Func:
			file.Decls = append(file.Decls, &ast.FuncDecl{Name: id, Type: &ast.FuncType{}})
		case *types.Var:
			file.Decls = append(file.Decls, &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{id}}}})
		}
	}
	p := prog.CreatePackage(imp.pkg, []*ast.File{file}, info, true)
	for _, m := range p.Members {
		if fn, ok := m.(*ssa.Function); ok && fn.Synthetic == "" {
			fn.Synthetic = "from type information"
		}
	}
}

// withoutGeneratedBodies returns the files with the bodies of the functions
// of generated files (deepcopy, conversion, clientsets, listers: "Code
// generated ... DO NOT EDIT.") left out: they hold no finding a user could
// act on, what lostupdate needs of them (DeepCopy, client calls) is in the
// client model, and they are often the bulk of a package. The syntax is
// shared, not copied: only the file and declaration nodes are new.
func withoutGeneratedBodies(fset *token.FileSet, files []*ast.File) []*ast.File {
	out := make([]*ast.File, len(files))
	for i, f := range files {
		out[i] = f
		if !Generated(fset, f) {
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

// cgoMarker is the first comment of cgo's translation of a file that
// imports "C".
const cgoMarker = "// Code generated by cmd/cgo; DO NOT EDIT."

// Generated reports whether a file is generated: it says "Code generated
// ... DO NOT EDIT." before its package clause. A file that imports "C"
// reaches the analyzer as cgo's translation of it (in the standalone
// command and under go vet alike), which begins with cgo's own marker and
// then a //line directive back to the original file, whose comments it
// keeps: that file is generated only if the original says so. It is told
// by its package clause, which the directive places in another file than
// the one parsed.
func Generated(fset *token.FileSet, f *ast.File) bool {
	if !ast.IsGenerated(f) {
		return false
	}
	if fset.Position(f.Package).Filename == fset.PositionFor(f.Package, false).Filename {
		return true
	}
	orig := &ast.File{Package: f.Package}
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		ng := &ast.CommentGroup{}
		for _, c := range g.List {
			if c.Text != cgoMarker {
				ng.List = append(ng.List, c)
			}
		}
		if len(ng.List) > 0 {
			orig.Comments = append(orig.Comments, ng)
		}
	}
	return ast.IsGenerated(orig)
}
