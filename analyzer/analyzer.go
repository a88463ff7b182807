package analyzer

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/rv"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssabuild"
)

//go:embed doc.go
var docSource string

// Name is the analyzer's name, and the prefix of nolint directives.
const Name = "lostupdate"

// Analyzer is lostupdate with every rule in its default mode; its flags
// configure it.
var Analyzer = mustNew(Config{})

// maxInstrs caps the size of a function lostupdate analyses, in SSA
// instructions: a larger one (generated code, mostly) is skipped rather than
// slowing the run down. Config.ReportSkipped reports the functions skipped.
const maxInstrs = 20000

// skippedCategory is the category, and message prefix, of the diagnostics
// of Config.ReportSkipped.
const skippedCategory = "skipped"

// New returns a lostupdate Analyzer with the given configuration. Each
// Analyzer owns its configuration: its flags write into it, and there is no
// state shared between Analyzers.
func New(cfg Config) (*analysis.Analyzer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &cfg
	a := &analysis.Analyzer{
		Name:      Name,
		Doc:       analyzerDoc(),
		URL:       "https://github.com/lostupdate/lostupdate#rules",
		Run:       c.run,
		FactTypes: []analysis.Fact{new(flow.FuncFact), new(packageFact), new(rv.FuncFact), new(rv.FieldFact)},
	}
	c.bindFlags(&a.Flags)
	return a, nil
}

func mustNew(cfg Config) *analysis.Analyzer {
	a, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return a
}

// CarriesFacts reports whether a package can hold lostupdate's facts, given
// its path, the paths of its direct imports and whether each of them does:
// it is outside the modelled libraries (client-go, apimachinery, api,
// controller-runtime, ...) and imports one of their packages or a package
// that carries facts. A driver may read every other package from export
// data; the packages of the module under analysis must still be loaded from
// source, since opaque-rv summarises their string helpers.
func CarriesFacts(path string, imports []string, carries func(path string) bool) bool {
	return model.CarriesFacts(path, imports, carries)
}

// inScope reports whether a package can hold anything lostupdate reports or
// summarises: it imports a modelled library or a package with summaries
// (model.CarriesFacts, with the facts of the imports as the answer for them).
func inScope(pass *analysis.Pass) bool {
	var imports []string
	byPath := map[string]*types.Package{}
	for _, imp := range pass.Pkg.Imports() {
		imports = append(imports, imp.Path())
		byPath[imp.Path()] = imp
	}
	return model.CarriesFacts(pass.Pkg.Path(), imports, func(path string) bool {
		return pass.ImportPackageFact(byPath[path], new(packageFact))
	})
}

// runOpaqueRVOutOfScope runs opaque-rv on a package of the analysed module
// that imports no Kubernetes library: a helper that parses or orders its
// string arguments is found there and exported as a fact, so that callers
// that pass it a resourceVersion are reported; names that say a string is a
// resourceVersion (rv, lastResourceVersion) are the only sources there.
// Packages of other modules (the standard library, dependencies) and
// packages without a parse or an ordering of strings are skipped before any
// SSA is built.
func (c *Config) runOpaqueRVOutOfScope(pass *analysis.Pass) (err error) {
	if !c.enabled("opaque-rv") || pass.Module == nil || pass.Module.Path == "" || pass.Module.Version != "" {
		return nil
	}
	if !mayOrderStrings(pass) {
		return nil
	}
	ssapkg, funcs, err := ssabuild.Build(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
	if err != nil {
		return fmt.Errorf("%s: %v", pass.Pkg.Path(), err)
	}
	ck := newChecker(pass, c, ssapkg, funcs)
	defer ck.recoverInto(&err)
	ck.runRules()
	return nil
}

// mayOrderStrings reports whether a package has anything opaque-rv looks
// for: a known parse or ordering function (strconv.Atoi, sort.Strings, ...),
// an ordering of strings, max or min, or a function with a resourceVersion
// fact.
func mayOrderStrings(pass *analysis.Pass) bool {
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if found {
				return false
			}
			switch x := n.(type) {
			case *ast.BinaryExpr:
				switch x.Op {
				case token.LSS, token.LEQ, token.GTR, token.GEQ:
					if t := pass.TypesInfo.TypeOf(x.X); t != nil && isStringType(t) {
						found = true
					}
				}
			case *ast.Ident:
				switch obj := pass.TypesInfo.Uses[x].(type) {
				case *types.Func:
					if obj.Pkg() == nil || obj.Pkg() == pass.Pkg {
						return true
					}
					var ff rv.FuncFact
					if model.IsSinkFunc(model.FuncName(obj)) || pass.ImportObjectFact(obj.Origin(), &ff) {
						found = true
					}
				case *types.TypeName:
					if model.IsStringSlice(obj.Type()) {
						found = true
					}
				case *types.Builtin:
					if obj.Name() == "min" || obj.Name() == "max" {
						found = true
					}
				}
			}
			return true
		})
	}
	return found
}

func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func (c *Config) run(pass *analysis.Pass) (_ any, err error) {
	if !inScope(pass) {
		return nil, c.runOpaqueRVOutOfScope(pass)
	}
	ssapkg, funcs, err := ssabuild.Build(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pass.Pkg.Path(), err)
	}
	all := len(funcs)
	ck := newChecker(pass, c, ssapkg, funcs)
	defer ck.recoverInto(&err)
	ck.flow = flow.New(ssapkg, ck.funcs, flow.Options{
		RetryHelpers: set(c.RetryHelpers),
		SafeWriters:  set(c.SafeWriters),
		Partial:      len(ck.funcs) < all,
	}, factSource{pass})
	ck.exportFacts()
	ck.runRules()
	ck.checkDirectives()
	return nil, nil
}

// newChecker prepares a run on a package whose SSA is built: functions over
// the size cap are left out.
func newChecker(pass *analysis.Pass, cfg *Config, pkg *ssa.Package, funcs []*ssa.Function) *checker {
	ck := &checker{
		pass:     pass,
		cfg:      cfg,
		ssaPkg:   pkg,
		funcs:    cfg.capSize(pass, funcs),
		reported: map[string]bool{},
	}
	return ck
}

// recoverInto turns a panic of the run into an error that names the
// function being looked at, or the package.
func (ck *checker) recoverInto(err *error) {
	r := recover()
	if r == nil {
		return
	}
	where := ck.pass.Pkg.Path()
	if ck.current != nil {
		where = fmt.Sprintf("%s (%s)", ck.current.String(), ck.pass.Fset.Position(ck.current.Pos()))
	}
	*err = fmt.Errorf("internal error analysing %s: %v; please report it", where, r)
	if os.Getenv("LOSTUPDATE_TRACE") != "" {
		*err = fmt.Errorf("%v\n%s", *err, debug.Stack())
	}
}

// capSize drops functions over the size cap; with ReportSkipped, it reports each
// one it drops.
func (c *Config) capSize(pass *analysis.Pass, funcs []*ssa.Function) []*ssa.Function {
	out := funcs[:0]
	for _, fn := range funcs {
		n := 0
		for _, b := range fn.Blocks {
			n += len(b.Instrs)
		}
		if n <= maxInstrs {
			out = append(out, fn)
			continue
		}
		if c.ReportSkipped {
			pos := fn.Pos()
			if !pos.IsValid() && len(pass.Files) > 0 {
				pos = pass.Files[0].Package
			}
			pass.Report(analysis.Diagnostic{
				Pos:      pos,
				Category: skippedCategory,
				Message: fmt.Sprintf("%s: %s is not analysed: it has %d SSA instructions, over the cap of %d, so no finding in it is reported",
					skippedCategory, fn.RelString(pass.Pkg), n, maxInstrs),
			})
		}
	}
	return out
}

// indexCalls maps the Lparen of every call expression to the call.
func indexCalls(ins *inspector.Inspector) map[token.Pos]*ast.CallExpr {
	m := map[token.Pos]*ast.CallExpr{}
	for c := range ins.Root().Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		m[call.Lparen] = call
	}
	return m
}

// analyzerDoc extracts the Analyzer's documentation from doc.go: the text
// after "# Analyzer lostupdate", in the go/analysis convention (first line a
// one-line summary).
func analyzerDoc() string {
	text := docComment(docSource)
	const marker = "# Analyzer " + Name
	i := strings.Index(text, marker)
	if i < 0 {
		panic("doc.go has no " + marker + " section")
	}
	return strings.TrimSpace(text[i+len(marker):])
}

// docComment returns the text of the /* */ package comment of a Go file.
func docComment(src string) string {
	start := strings.Index(src, "/*")
	end := strings.Index(src, "*/")
	if start < 0 || end < start {
		panic("doc.go has no package comment")
	}
	return src[start+2 : end]
}
