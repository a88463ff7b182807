package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/lostupdate/lostupdate/analyzer"
)

// The loader.
//
// An analyzer with facts makes the x/tools drivers type-check every
// dependency from source (packages.LoadAllSyntax), client-go, apimachinery
// and controller-runtime included. lostupdate needs facts only from packages
// that can hold them (analyzer.CarriesFacts): those outside the modelled
// modules that import a client package, directly or through another such
// package. The other dependencies come from export data, as they do for an
// analyzer without facts.
//
// One go list call gives the import graph and the export data of every
// package. Loaded from source are the matched packages (with their test
// variants under -test), the fact carriers among their dependencies (also
// in the variants recompiled for a test), and the packages of the main
// modules, whose string helpers opaque-rv summarises; a fact carrier of
// another module that an earlier run found to carry no facts is read from
// export data (see cache.go). Each package loaded
// from source imports, for the checker, the packages loaded from source that
// it reaches, so that facts flow along the same paths as when everything is
// loaded from source.

// listPackage is what go list -json says about a package.
type listPackage struct {
	ImportPath      string
	Name            string
	Dir             string
	Export          string
	GoFiles         []string
	CompiledGoFiles []string
	OtherFiles      []string `json:"-"`
	CFiles          []string
	CXXFiles        []string
	MFiles          []string
	HFiles          []string
	FFiles          []string
	SFiles          []string
	SwigFiles       []string
	SwigCXXFiles    []string
	SysoFiles       []string
	IgnoredGoFiles  []string
	Imports         []string
	ImportMap       map[string]string
	Standard        bool
	DepOnly         bool
	Incomplete      bool
	ForTest         string
	Module          *packages.Module
	Error           *listError
	DepsErrors      []*listError
}

type listError struct {
	Pos string
	Err string
}

// node is a package of the graph.
type node struct {
	lp      *listPackage
	imports map[string]*node // by import path as written
	source  bool             // loaded from source
	root    bool             // matched by the patterns (or a test variant of one)
	needed  bool             // imported by a package loaded from source
	pkg     *packages.Package
	once    sync.Once
	done    bool // types loaded
}

type loader struct {
	dir      string
	tests    bool
	fset     *token.FileSet
	sizes    types.Sizes
	nodes    map[string]*node // by ID (go list ImportPath)
	byTypes  map[*types.Package]*node
	exportMu sync.Mutex
	cpu      chan struct{}
	notice   func(string)
	cache    *factsCache
}

// listFields are the go list -json fields the loader reads.
var listFields = []string{
	"ImportPath", "Name", "Dir", "Export", "GoFiles", "CompiledGoFiles",
	"CFiles", "CXXFiles", "MFiles", "HFiles", "FFiles", "SFiles", "SwigFiles", "SwigCXXFiles", "SysoFiles",
	"IgnoredGoFiles", "Imports", "ImportMap", "Standard", "DepOnly", "Incomplete", "ForTest", "Module", "Error", "DepsErrors",
}

// goList runs go list on the patterns. Its standard error is passed on;
// before the first line that says the go command downloads a module,
// notice is called once.
func goList(dir string, tests bool, notice func(string), patterns []string) ([]*listPackage, error) {
	args := []string{"list", "-e", "-json=" + strings.Join(listFields, ","), "-compiled=true",
		fmt.Sprintf("-test=%t", tests), "-export=true", "-deps=true", "-find=false", "-pgo=off", "--"}
	cmd := exec.Command("go", append(args, patterns...)...)
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	var stderr, passOn bytes.Buffer
	sc := bufio.NewScanner(errPipe)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "go: downloading ") {
			notice("downloading the modules the packages need")
		}
		stderr.WriteString(line + "\n")
		// Compiler errors of the packages (for export data) are left to
		// the type checker; the go command's own messages are passed on.
		if strings.HasPrefix(line, "go: ") {
			passOn.WriteString(line + "\n")
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, strings.TrimSpace(stderr.String()))
	}
	os.Stderr.Write(passOn.Bytes()) // warnings such as "matched no packages"
	var out []*listPackage
	dec := json.NewDecoder(&stdout)
	for {
		lp := new(listPackage)
		if err := dec.Decode(lp); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		out = append(out, lp)
	}
	return out, nil
}

// isTestMain reports whether a listed package is the generated main package
// of a test binary ("p.test").
func isTestMain(lp *listPackage) bool {
	return lp.Name == "main" && strings.HasSuffix(lp.ImportPath, ".test")
}

// pkgPath is the package path of a listed package: its ID without the
// " [p.test]" of a test variant.
func pkgPath(id string) string {
	if i := strings.Index(id, " ["); i >= 0 {
		return id[:i]
	}
	return id
}

// load lists and loads the packages matched by patterns and returns the
// matched ones.
func (ld *loader) load(patterns []string) ([]*packages.Package, error) {
	list, err := goList(ld.dir, ld.tests, ld.notice, patterns)
	if err != nil {
		return nil, err
	}
	ld.nodes = map[string]*node{}
	for _, lp := range list {
		if isTestMain(lp) {
			continue
		}
		ld.nodes[lp.ImportPath] = &node{lp: lp, root: !lp.DepOnly}
	}
	for _, n := range ld.nodes {
		// Imports lists the IDs of the imports (those of test variants
		// included); ImportMap maps the path written in the source to
		// the ID where they differ.
		n.imports = map[string]*node{}
		ids := map[string]bool{}
		for _, id := range n.lp.Imports {
			ids[id] = true
		}
		for path, id := range n.lp.ImportMap {
			if dep := ld.nodes[id]; dep != nil {
				n.imports[path] = dep
			}
			delete(ids, id)
		}
		for id := range ids {
			if dep := ld.nodes[id]; dep != nil {
				n.imports[id] = dep
			}
		}
	}
	ld.selectSource()
	ld.cpu = make(chan struct{}, runtime.GOMAXPROCS(0))

	var roots []*node
	for _, n := range ld.nodes {
		n.pkg = ld.newPackage(n)
		if n.root {
			roots = append(roots, n)
		}
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].lp.ImportPath < roots[j].lp.ImportPath })
	ld.byTypes = map[*types.Package]*node{}
	for _, n := range ld.nodes {
		ld.byTypes[n.pkg.Types] = n
	}
	ld.linkSource()
	var out []*packages.Package
	for _, n := range roots {
		out = append(out, n.pkg)
	}
	return out, nil
}

// newPackage returns the packages.Package of a node, with an empty
// types.Package (and types.Info, for one loaded from source) that loading
// fills in. Every package gets its types.Package here, so that reading
// export data, which fills in the packages it mentions, never makes a
// second one for a path.
func (ld *loader) newPackage(n *node) *packages.Package {
	lp := n.lp
	pkg := &packages.Package{
		ID:              lp.ImportPath,
		Name:            lp.Name,
		PkgPath:         pkgPath(lp.ImportPath),
		GoFiles:         absAll(lp.Dir, lp.GoFiles),
		CompiledGoFiles: absAll(lp.Dir, lp.CompiledGoFiles),
		OtherFiles: absAll(lp.Dir, concat(lp.CFiles, lp.CXXFiles, lp.MFiles, lp.HFiles, lp.FFiles,
			lp.SFiles, lp.SwigFiles, lp.SwigCXXFiles, lp.SysoFiles)),
		IgnoredFiles: absAll(lp.Dir, lp.IgnoredGoFiles),
		ExportFile:   lp.Export,
		Module:       lp.Module,
		Fset:         ld.fset,
		TypesSizes:   ld.sizes,
		Imports:      map[string]*packages.Package{},
		Types:        types.NewPackage(pkgPath(lp.ImportPath), lp.Name),
		Syntax:       []*ast.File{},
		TypesInfo:    newInfo(),
	}
	if lp.ImportPath == "unsafe" {
		pkg.Types = types.Unsafe
	}
	if len(pkg.CompiledGoFiles) == 0 {
		// go list leaves it empty when an import is missing.
		pkg.CompiledGoFiles = pkg.GoFiles
	}
	if lp.Error != nil {
		pkg.Errors = append(pkg.Errors, listErr(lp.Error))
	}
	return pkg
}

// loadTypes loads the types of a package loaded from source (and, first,
// those of everything it imports), once; the analysis pass of a package
// asks for it just before it runs, so that the syntax and type information
// of a package need not be in memory before it is analysed, nor after.
func (ld *loader) loadTypes(tpkg *types.Package) {
	if n := ld.byTypes[tpkg]; n != nil {
		ld.loadNode(n)
	}
}

// selectSource marks the packages to load from source: the roots, the fact
// carriers and the packages of the main modules.
func (ld *loader) selectSource() {
	carries := map[*node]bool{}
	var visit func(n *node) bool
	state := map[*node]uint8{} // 1 visiting, 2 done
	visit = func(n *node) bool {
		switch state[n] {
		case 1:
			return false // an import cycle (only in broken code)
		case 2:
			return carries[n]
		}
		state[n] = 1
		var imports []string
		for _, dep := range n.imports {
			imports = append(imports, pkgPath(dep.lp.ImportPath))
			visit(dep)
		}
		c := !n.lp.Standard && analyzer.CarriesFacts(pkgPath(n.lp.ImportPath), imports, func(path string) bool {
			for _, dep := range n.imports {
				if pkgPath(dep.lp.ImportPath) == path && carries[dep] {
					return true
				}
			}
			return false
		})
		carries[n] = c
		state[n] = 2
		return c
	}
	for _, n := range ld.nodes {
		visit(n)
		mod := n.lp.Module
		mainModule := mod != nil && mod.Path != "" && mod.Version == ""
		n.source = n.root || carries[n] && !ld.cache.noFacts(n) || mainModule && !n.lp.Standard
		if n.lp.ImportPath == "unsafe" {
			n.source = false
		}
	}
	ld.dropTestedPackages()
	for _, n := range ld.nodes {
		if n.source {
			for _, dep := range n.imports {
				dep.needed = true
			}
		}
	}
}

// dropTestedPackages leaves out a matched package that has a test variant
// (its files and its in-package tests) when no package loaded from source
// imports it: as under go vet, the test variant is what is analysed, and a
// finding in the package's own files is found there.
func (ld *loader) dropTestedPackages() {
	tested := map[string]bool{}
	for _, n := range ld.nodes {
		// A test variant that cannot be loaded (an import of a test is
		// missing) leaves the package to be analysed on its own.
		if n.lp.ForTest != "" && pkgPath(n.lp.ImportPath) == n.lp.ForTest && n.root &&
			!n.lp.Incomplete && n.lp.Error == nil && len(n.lp.DepsErrors) == 0 {
			tested[n.lp.ForTest] = true
		}
	}
	for changed := true; changed; {
		changed = false
		imported := map[*node]bool{}
		for _, n := range ld.nodes {
			if n.source {
				for _, dep := range n.imports {
					imported[dep] = true
				}
			}
		}
		for _, n := range ld.nodes {
			if n.root && n.source && n.lp.ForTest == "" && tested[n.lp.ImportPath] && !imported[n] {
				n.root, n.source = false, false
				changed = true
			}
		}
	}
}

// loadNode loads the types of n, after those of its imports: it
// type-checks a package loaded from source, and reads the export data of
// one that such a package imports (after that of its own imports: what it
// says of them goes into their packages).
func (ld *loader) loadNode(n *node) {
	n.once.Do(func() {
		var wg sync.WaitGroup
		for _, dep := range n.imports {
			wg.Add(1)
			go func() { defer wg.Done(); ld.loadNode(dep) }()
		}
		wg.Wait()
		if n.lp.ImportPath == "unsafe" {
			return
		}
		if n.source {
			ld.typeCheck(n)
			return
		}
		if n.needed {
			if _, err := ld.exportTypes(n); err != nil {
				n.pkg.Errors = append(n.pkg.Errors, packages.Error{Msg: err.Error(), Kind: packages.UnknownError})
			}
		}
	})
}

func listErr(e *listError) packages.Error {
	return packages.Error{Pos: e.Pos, Msg: strings.TrimSpace(e.Err), Kind: packages.ListError}
}

// exportTypes reads the export data of n, once.
func (ld *loader) exportTypes(n *node) (*types.Package, error) {
	ld.exportMu.Lock()
	defer ld.exportMu.Unlock()
	if n.done {
		return n.pkg.Types, nil
	}
	if n.lp.Export == "" {
		if n.lp.Error != nil {
			return nil, fmt.Errorf("%s", strings.TrimSpace(n.lp.Error.Err))
		}
		return nil, fmt.Errorf("no export data for %s", n.lp.ImportPath)
	}
	f, err := os.Open(n.lp.Export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", n.lp.Export, err)
	}
	view := map[string]*types.Package{}
	seen := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		for _, dep := range n.imports {
			if !seen[dep] {
				seen[dep] = true
				view[pkgPath(dep.lp.ImportPath)] = dep.pkg.Types
				visit(dep)
			}
		}
	}
	visit(n)
	tpkg, err := gcexportdata.Read(r, ld.fset, view, n.pkg.PkgPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", n.lp.Export, err)
	}
	n.pkg.Types = tpkg
	n.done = true
	return tpkg, nil
}

// typeCheck parses and type-checks a package loaded from source.
func (ld *loader) typeCheck(n *node) {
	pkg := n.pkg
	appendError := func(err error) {
		switch err := err.(type) {
		case types.Error:
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: err.Fset.Position(err.Pos).String(), Msg: err.Msg, Kind: packages.TypeError})
			pkg.TypeErrors = append(pkg.TypeErrors, err)
		case scanner.ErrorList:
			for _, e := range err {
				pkg.Errors = append(pkg.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		case *scanner.Error:
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: err.Pos.String(), Msg: err.Msg, Kind: packages.ParseError})
		default:
			pkg.Errors = append(pkg.Errors, packages.Error{Msg: err.Error(), Kind: packages.UnknownError})
		}
	}

	ld.cpu <- struct{}{}
	files := make([]*ast.File, len(pkg.CompiledGoFiles))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, name := range pkg.CompiledGoFiles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src, err := os.ReadFile(name)
			if err != nil {
				errs[i] = err
				return
			}
			files[i], errs[i] = parser.ParseFile(ld.fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		}()
	}
	wg.Wait()
	for i, f := range files {
		if errs[i] != nil {
			appendError(errs[i])
		}
		if f != nil {
			pkg.Syntax = append(pkg.Syntax, f)
		}
	}

	importer := importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		dep := n.imports[path]
		if dep == nil {
			return nil, fmt.Errorf("no metadata for %s", path)
		}
		if dep.source {
			if dep.pkg.Types == nil || !dep.pkg.Types.Complete() && len(dep.pkg.Errors) == 0 {
				return nil, fmt.Errorf("%s has no types", path)
			}
			return dep.pkg.Types, nil
		}
		return ld.exportTypes(dep)
	})
	tc := &types.Config{
		Importer: importer,
		Error:    appendError,
		Sizes:    ld.sizes,
	}
	if m := pkg.Module; m != nil && m.GoVersion != "" {
		tc.GoVersion = "go" + m.GoVersion
	}
	_ = types.NewChecker(tc, ld.fset, pkg.Types, pkg.TypesInfo).Files(pkg.Syntax)
	<-ld.cpu
	if len(pkg.Errors) > 0 {
		pkg.IllTyped = true
	}
}

// linkSource gives every package loaded from source, as its Imports, the
// packages loaded from source that it reaches through packages that are not.
func (ld *loader) linkSource() {
	reach := map[*node][]*node{} // nearest source packages below a package read from export data
	var below func(n *node) []*node
	below = func(n *node) []*node {
		if r, ok := reach[n]; ok {
			return r
		}
		reach[n] = nil // cycles (broken code only)
		seen := map[*node]bool{}
		var r []*node
		for _, dep := range n.imports {
			var found []*node
			if dep.source {
				found = []*node{dep}
			} else {
				found = below(dep)
			}
			for _, s := range found {
				if !seen[s] {
					seen[s] = true
					r = append(r, s)
				}
			}
		}
		reach[n] = r
		return r
	}
	for _, n := range ld.nodes {
		if n.source && n.pkg != nil {
			for _, s := range below(n) {
				if s.pkg != nil {
					n.pkg.Imports[s.pkg.ID] = s.pkg
				}
			}
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func newInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}

func absAll(dir string, files []string) []string {
	var out []string
	for _, f := range files {
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		out = append(out, f)
	}
	return out
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// init sets up the loader's file set and sizes.
func (ld *loader) init() {
	ld.fset = token.NewFileSet()
	arch := os.Getenv("GOARCH")
	if arch == "" {
		arch = runtime.GOARCH
	}
	ld.sizes = types.SizesFor("gc", arch)
}
