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

// maxInstrs caps the size of a function lostupdate analyses: a larger one
// (generated code, mostly) is skipped rather than slowing the run down.
const maxInstrs = 20000

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

// packageFact marks a package that exports lostupdate facts, so that a
// package importing only such packages is still analysed.
type packageFact struct{}

func (*packageFact) AFact()         {}
func (*packageFact) String() string { return "has summaries" }

// inScope reports whether a package can hold anything lostupdate reports or
// summarises: it imports a modelled library or a package with summaries.
func inScope(pass *analysis.Pass) bool {
	if model.IsModelled(pass.Pkg.Path()) {
		return false
	}
	for _, imp := range pass.Pkg.Imports() {
		if model.IsModelled(imp.Path()) {
			return true
		}
		if pass.ImportPackageFact(imp, new(packageFact)) {
			return true
		}
	}
	return false
}

func (c *Config) run(pass *analysis.Pass) (_ any, err error) {
	if !inScope(pass) {
		return nil, c.runOpaqueRVOutOfScope(pass)
	}
	ssapkg, funcs, err := ssabuild.Build(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pass.Pkg.Path(), err)
	}
	ck := newChecker(pass, c, ssapkg, funcs)
	defer ck.recoverInto(&err)
	ck.flow = flow.New(ssapkg, ck.funcs, flow.Options{
		RetryHelpers: set(c.RetryHelpers),
		SafeWriters:  set(c.SafeWriters),
	}, factSource{pass})
	ck.exportFacts()
	ck.runRules()
	ck.checkDirectives()
	return nil, nil
}

// newChecker prepares a run on a package whose SSA is built: functions over
// the size cap are left out.
func newChecker(pass *analysis.Pass, cfg *Config, pkg *ssa.Package, funcs []*ssa.Function) *checker {
	return &checker{
		pass:     pass,
		cfg:      cfg,
		ssaPkg:   pkg,
		funcs:    capSize(funcs),
		calls:    indexCalls(pass.Files),
		reported: map[string]bool{},
	}
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

// capSize drops functions over the size cap.
func capSize(funcs []*ssa.Function) []*ssa.Function {
	out := funcs[:0]
	for _, fn := range funcs {
		n := 0
		for _, b := range fn.Blocks {
			n += len(b.Instrs)
		}
		if n <= maxInstrs {
			out = append(out, fn)
		}
	}
	return out
}

// exportFacts exports the summaries of the package's exported functions and
// methods that callers in other packages need.
func (ck *checker) exportFacts() {
	any := false
	for _, fn := range ck.funcs {
		if fn.Parent() != nil {
			continue
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj == nil || !obj.Exported() {
			continue
		}
		ck.current = fn
		if f := ck.flow.Fact(fn); f != nil {
			ck.pass.ExportObjectFact(obj, f)
			any = true
		}
	}
	ck.current = nil
	if any {
		ck.pass.ExportPackageFact(new(packageFact))
	}
}

type factSource struct{ pass *analysis.Pass }

func (s factSource) FuncFact(fn *types.Func) *flow.FuncFact {
	var f flow.FuncFact
	if s.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// indexCalls maps the Lparen of every call expression to the call.
func indexCalls(files []*ast.File) map[token.Pos]*ast.CallExpr {
	m := map[token.Pos]*ast.CallExpr{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				m[c.Lparen] = c
			}
			return true
		})
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
